/**
 * Fault injection for the fault suite (apps/api/faults): `HELIX_CRASH_AT=<point>` makes the process
 * SIGKILL itself when it reaches `crashPoint(<point>)`, so a test can stop it between two steps exactly
 * instead of by timing. Read once at start-up and never honoured when NODE_ENV is production.
 */
const CRASH_AT = process.env.NODE_ENV === 'production' ? undefined : process.env.HELIX_CRASH_AT || undefined;

/** The crash points of an Idempotency-Key request, in the order it passes them. */
export const IDEMPOTENCY_CRASH_POINTS = [
  'idempotency:after-claim',
  'idempotency:after-command',
  'idempotency:after-answer',
  'idempotency:after-commit',
] as const;

export function crashPoint(point: string): void {
  if (CRASH_AT === undefined || CRASH_AT !== point) return;
  process.stderr.write(`crash point ${point}: SIGKILL\n`);
  process.kill(process.pid, 'SIGKILL');
}
