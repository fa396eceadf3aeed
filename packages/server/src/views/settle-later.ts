/** How often, and for how long, a lost counting answer is tried again (Redis outages last seconds). */
const RETRY_EVERY_MS = 1_000;
const GIVE_UP_AFTER_MS = 15 * 60_000;

/**
 * Runs `settle` in the background until it succeeds: for a view whose counting script was sent but
 * whose answer was lost with the connection (Redis may or may not have counted it). The script is
 * idempotent within the view window (its viewer key), so running it again once Redis answers counts a
 * load Redis missed and leaves one it counted alone; the load itself is served at once. Kept in this
 * process's memory: a crash in the same few seconds loses at most the loads being settled.
 */
export function settleLater(settle: () => Promise<unknown>, onGiveUp: (error: unknown) => void): void {
  const deadline = Date.now() + GIVE_UP_AFTER_MS;
  const attempt = () => {
    settle().catch((error: unknown) => {
      if (Date.now() > deadline) onGiveUp(error);
      else setTimeout(attempt, RETRY_EVERY_MS).unref();
    });
  };
  setTimeout(attempt, RETRY_EVERY_MS).unref();
}
