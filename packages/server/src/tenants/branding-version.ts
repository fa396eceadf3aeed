import type { ServerDeps } from '../deps.ts';
import { isRedisUnavailable, redisKey, redisOutageOf } from '../redis.ts';

/**
 * One counter in Redis for every school's look, bumped after each branding update commits: a process
 * that keeps something rendered with a look (the server-rendered branded logins, apps/api
 * server-render-guest.ts) keys it by this version, so a change shows on the next load in every API
 * process. One counter for all schools: a look is found by brand name or host, and branding changes
 * are rare.
 */
const versionKey = (deps: Pick<ServerDeps, 'config'>) =>
  redisKey(deps.config.REDIS_PREFIX, 'branding', 'version');

/** The looks' version now ('0' before any update); null while Redis is down or does not answer. */
export async function brandingVersion(deps: Pick<ServerDeps, 'redis' | 'config'>): Promise<string | null> {
  if (redisOutageOf(deps.redis)?.down) return null;
  try {
    return (await deps.redis.get(versionKey(deps))) ?? '0';
  } catch (error) {
    if (isRedisUnavailable(error)) redisOutageOf(deps.redis)?.failed(error);
    return null;
  }
}

/**
 * A look changed: bumps the version. A failure is logged and not thrown (the update has committed);
 * what was rendered with the old look is then only renewed by its own lifetime.
 */
export async function bumpBrandingVersion(
  deps: Pick<ServerDeps, 'redis' | 'config' | 'logger'>,
): Promise<void> {
  try {
    await deps.redis.incr(versionKey(deps));
  } catch (err) {
    deps.logger.warn({ err }, 'branding version not bumped: branded pages renew within their lifetime');
  }
}
