import type { Logger } from 'pino';
import type { Db } from '../db.ts';
import { type DependencyOutage, knownOutageOf, outageOf } from './dependency-outage.ts';

/** While PostgreSQL is marked down, ask it this often whether it is back. */
const PROBE_INTERVAL_MS = 1000;
/** A probe that has not answered in this long failed. */
const PROBE_TIMEOUT_MS = 800;

/**
 * The database's outage state (see DependencyOutage), logged once per outage: whoever sees PostgreSQL
 * unreachable (the error handler, the readiness check) reports it; from then on a `SELECT 1` every
 * second ends the outage as soon as PostgreSQL answers again, whether or not requests come.
 */
export function watchDatabase(db: Db, logger: Logger): DependencyOutage {
  const existing = knownOutageOf(db);
  if (existing) return existing;
  const outage = outageOf(db, 'postgresql', logger);
  let probe: NodeJS.Timeout | undefined;
  let probing = false;
  outage.onFailed(() => {
    if (probe) return;
    probe = setInterval(() => {
      if (probing) return;
      probing = true;
      let timer: NodeJS.Timeout | undefined;
      Promise.race([
        db.$queryRaw`SELECT 1`,
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('probe timed out')), PROBE_TIMEOUT_MS);
        }),
      ])
        .then(
          () => outage.recovered(),
          () => undefined,
        )
        .finally(() => {
          clearTimeout(timer);
          probing = false;
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
