import type { Logger } from 'pino';
import type { Db } from '../db.ts';
import { answersWithin, type DependencyOutage, knownOutageOf, outageOf } from './dependency-outage.ts';

/** While PostgreSQL is marked down, ask it this often whether it is back. */
const PROBE_INTERVAL_MS = 1000;
/** A probe that has not answered in this long failed. */
const PROBE_TIMEOUT_MS = 800;
/** Before an error counts as an outage, `SELECT 1` gets this long (a busy pool is not an outage). */
const CONFIRM_TIMEOUT_MS = 2000;

/**
 * The database's outage state (see DependencyOutage), logged once per outage: whoever sees PostgreSQL
 * unreachable (the error handler, the readiness check) reports it, and it starts once a `SELECT 1`
 * fails too; from then on a `SELECT 1` every second ends the outage as soon as PostgreSQL answers
 * again, whether or not requests come.
 */
export function watchDatabase(db: Db, logger: Logger): DependencyOutage {
  const existing = knownOutageOf(db);
  if (existing) return existing;
  const selectOne = (ms: number) => answersWithin(db.$queryRaw`SELECT 1`, ms);
  const outage = outageOf(db, 'postgresql', logger, async () => !(await selectOne(CONFIRM_TIMEOUT_MS)));
  let probe: NodeJS.Timeout | undefined;
  let probing = false;
  outage.onFailed(() => {
    if (probe) return;
    probe = setInterval(() => {
      if (probing) return;
      probing = true;
      void selectOne(PROBE_TIMEOUT_MS).then((ok) => {
        probing = false;
        if (ok) outage.recovered();
      });
    }, PROBE_INTERVAL_MS);
    probe.unref();
  });
  outage.onRecovered(() => {
    clearInterval(probe);
    probe = undefined;
  });
  return outage;
}
