import type { Config } from '@helix/server';

/** What an in-flight request may still need after the last one of its own waits ends. */
const SHUTDOWN_MARGIN_MS = 10_000;
const MIN_SHUTDOWN_TIMEOUT_MS = 30_000;

/**
 * How long a stopping API waits for open requests before it forces the exit. The longest wait inside
 * a request is an upload's image check (IMAGE_CHECK_TIMEOUT_MS), so the timeout outlasts it with a
 * margin: a deploy never cuts off an upload that would have finished. The drain (SHUTDOWN_DRAIN_MS) comes first.
 */
export const shutdownTimeoutMs = (
  config: Pick<Config, 'IMAGE_CHECK_TIMEOUT_MS'> & Partial<Pick<Config, 'SHUTDOWN_DRAIN_MS'>>,
): number =>
  (config.SHUTDOWN_DRAIN_MS ?? 0) +
  Math.max(MIN_SHUTDOWN_TIMEOUT_MS, config.IMAGE_CHECK_TIMEOUT_MS + SHUTDOWN_MARGIN_MS);
