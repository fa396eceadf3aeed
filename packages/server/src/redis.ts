import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import { answersWithin, knownOutageOf, outageOf, type DependencyOutage } from './health/dependency-outage.ts';

/**
 * A Redis client. Every key the app writes itself is prefixed with REDIS_PREFIX by `redisKey`;
 * BullMQ prefixes its own keys with the same value.
 */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: 3, ...options });
}

/** What ioredis keeps of a client's automatic pipelines and scripts (its internals, used by defineScript). */
interface PipelineInternals {
  _autoPipelines?: Map<string, Record<string, unknown> & { _shaToScript?: Record<string, unknown> }>;
  scriptsSet?: Record<string, { sha: string }>;
}

/**
 * Defines a Lua command on a client (ioredis `defineCommand`), safe under auto-pipelining. ioredis
 * copies a client's commands into a pipeline when it makes one, so a command defined while this
 * turn's automatic pipeline is open is missing from that pipeline: calling it there threw inside
 * ioredis and left the pipeline's callbacks one off, and the pipeline's answer then threw an uncaught
 * TypeError that ended the process (the first load refused during a PostgreSQL outage defined its
 * script in such a turn: the API died, one fault run in three). The open pipelines get it too.
 */
export function defineScript(
  redis: Redis,
  name: string,
  definition: { lua: string; numberOfKeys?: number },
): void {
  redis.defineCommand(name, definition);
  const internals = redis as unknown as PipelineInternals & Record<string, unknown>;
  const script = internals.scriptsSet?.[name];
  for (const pipeline of internals._autoPipelines?.values() ?? []) {
    pipeline[name] = internals[name];
    pipeline[`${name}Buffer`] = internals[`${name}Buffer`];
    if (script && pipeline._shaToScript) pipeline._shaToScript[script.sha] = script;
  }
}

/** A request-path Redis command that has not answered in this long fails (the request then degrades or answers 503). */
export const REDIS_COMMAND_TIMEOUT_MS = 800;

/**
 * Options for a process's command client (not for BullMQ's connections, whose blocking commands must
 * not wait in a pipeline and which need `maxRetriesPerRequest: null`):
 *
 * - commands issued in the same turn of the event loop go to Redis in one write (auto-pipelining), so
 *   under load many requests' commands cost one system call instead of one each;
 * - fail fast during an outage: no offline queue (a command while disconnected fails at once, and is
 *   known never to have reached Redis, so a caller may safely do the work another way), no retries
 *   and no re-sending of unanswered commands after a reconnect (a caller that already fell back must
 *   not see its command run later), and a command timeout for a Redis that accepts but does not answer;
 * - reconnect at most a second after Redis is back.
 *
 * A process using it should await `redisReady` before serving (the first commands would fail otherwise).
 */
export const COMMAND_CLIENT_OPTIONS: RedisOptions = {
  enableAutoPipelining: true,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  autoResendUnfulfilledCommands: false,
  commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
  connectTimeout: 2000,
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 1000),
};

export const redisKey = (prefix: string, ...parts: string[]): string => [prefix, ...parts].join(':');

/** Resolves once the client is connected, or after `timeoutMs` (a process still starts while Redis is down). */
export async function redisReady(redis: Redis, timeoutMs = 5000): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => finish(false), timeoutMs);
    const onReady = () => finish(true);
    function finish(ok: boolean) {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ok);
    }
    redis.once('ready', onReady);
  });
}

/** The message ioredis gives a command refused because the client is not connected (and has no offline queue). */
const NOT_SENT = /enableOfflineQueue options is false|Stream isn't writeable/;

/**
 * A command failed without reaching Redis: the client was not connected. The caller may do the work
 * another way without any risk of it also happening in Redis.
 */
export const redisCommandNotSent = (error: unknown): boolean =>
  error instanceof Error && NOT_SENT.test(error.message);

/**
 * An error of the Redis client meaning Redis is unreachable or not answering (not a script or type
 * error): not connected, connection lost, a command timeout, retries exhausted.
 */
export function isRedisUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  return (
    NOT_SENT.test(error.message) ||
    /^Command timed out|^Connection is closed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE/.test(error.message)
  );
}

/** Before a timeout while connected counts as an outage, a PING gets this long. */
const CONFIRM_TIMEOUT_MS = 2000;

/** While Redis is marked down but the client still thinks it is connected (a hung server), ask this often. */
const PROBE_INTERVAL_MS = 1000;

/**
 * What an 'error' event of a Redis client or of a BullMQ worker, queue or queue events does: a
 * connection error (ECONNREFUSED, a lost or closed connection, a timeout) only counts towards the
 * outage, whose start and end are the two lines an operator reads (watchRedis); anything else is
 * logged at warn. Replaces a multi-line stack per reconnect attempt.
 */
export function redisErrorReporter(
  outage: Pick<DependencyOutage, 'failed'>,
  logger: Pick<Logger, 'warn'>,
  context: Record<string, unknown> = {},
): (error: unknown) => void {
  return (error) => {
    if (isRedisUnavailable(error)) outage.failed(error);
    else logger.warn({ ...context, err: error }, 'redis error');
  };
}

/**
 * The client's outage state, logged once per outage (see DependencyOutage): a lost connection starts
 * it, the client's `ready` ends it. A request path that sees a command time out reports it too
 * (`failed`); a hung Redis that keeps the connection open is then probed with PING until it answers.
 * Replaces a log line per reconnect attempt or per failed request.
 */
export function watchRedis(redis: Redis, logger: Logger, name = 'redis'): DependencyOutage {
  const existing = knownOutageOf(redis);
  if (existing) return existing;
  // A lost connection is certain; a timeout while connected is an outage only if a PING fails too.
  const outage = outageOf(redis, name, logger, async () => {
    if (redis.status !== 'ready') return true;
    // Twice: each PING has the client's own command timeout, which a busy event loop can overrun once.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      if (await answersWithin(redis.ping(), CONFIRM_TIMEOUT_MS)) return false;
    }
    return true;
  });
  let probe: NodeJS.Timeout | undefined;
  const stopProbe = () => {
    clearInterval(probe);
    probe = undefined;
  };
  redis.on('error', redisErrorReporter(outage, logger, { dependency: name }));
  redis.on('reconnecting', () => outage.failed(new Error('connection lost, reconnecting')));
  redis.on('ready', () => {
    stopProbe();
    outage.recovered();
  });
  redis.on('end', stopProbe);
  outage.onFailed(() => {
    if (probe || redis.status !== 'ready') return;
    probe = setInterval(() => {
      if (redis.status !== 'ready') return; // the reconnect's `ready` will end the outage
      redis.ping().then(
        () => {
          stopProbe();
          outage.recovered();
        },
        () => undefined,
      );
    }, PROBE_INTERVAL_MS);
    probe.unref();
  });
  return outage;
}

/** The outage state of a watched client (undefined when nothing watches it, e.g. in a unit test). */
export const redisOutageOf = (redis: Redis): DependencyOutage | undefined => knownOutageOf(redis);

export type { Redis };
