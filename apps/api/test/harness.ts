import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import type { Express } from 'express';
import { createLogger, parseConfig, type Config } from '@helix/server';
import type { Db } from '@helix/server/db';
import { createTestDb } from '@helix/server/testing/test-db';
import { COMMAND_CLIENT_OPTIONS, createRedis, redisReady, type Redis } from '@helix/server/redis';
import { JobQueue } from '@helix/server/queue/job-queue';
import type { ServerDeps } from '@helix/server/deps';
import { createTestDatabase, dropDatabase } from '@helix/stack/test-db';
import { createApp } from '../src/app.ts';
import type { Draining } from '../src/http/draining.ts';
import { checkedApp } from './contract.ts';

/** createApp with every /api answer checked against the reference, for tests that build their own app. */
export const createCheckedApp = (...args: Parameters<typeof createApp>) => checkedApp(createApp(...args));

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * The command client of the test app and of the tests' own set-up and checks: the production client's
 * behaviour (auto-pipelining, no offline queue, no retries, no re-sending after a reconnect) with a
 * command timeout of 15 s instead of 800 ms. The fail-fast timeout is for a production request facing a
 * Redis that stopped answering; on a loaded test machine (the suite beside a build and a browser run)
 * a healthy Redis's answer can take longer than 800 ms to be read, and a test must not fail for that.
 * Tests of Redis down or not answering build their own client with COMMAND_CLIENT_OPTIONS
 * (health.routes.test.ts, rate-limit.test.ts) or run the real processes (the redis-outage fault case).
 */
const TEST_COMMAND_CLIENT_OPTIONS = { ...COMMAND_CLIENT_OPTIONS, commandTimeout: 15_000 };

/** Every log line the app wrote, for tests that check what never gets logged. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void) {
    this.lines.push(chunk.toString('utf8'));
    done();
  }
  get text() {
    return this.lines.join('');
  }
}

export interface Twin {
  app: Express;
  deps: ServerDeps;
  close(): Promise<void>;
}

export interface Harness {
  app: Express;
  deps: ServerDeps;
  db: Db;
  redis: Redis;
  config: Config;
  logs: LogCapture;
  /** Builds another app on the same database and Redis with other settings (and its drain, when given). */
  appWith(env: Record<string, string>, draining?: Draining): Express;
  /**
   * A second API process in all but the process: its own database pool, Redis connections, queue and
   * configuration object (so its own in-process caches), over the same database and Redis prefix.
   */
  twin(env?: Record<string, string>): Promise<Twin>;
  close(): Promise<void>;
}

/**
 * A real app over an isolated, migrated PostgreSQL database and a Redis key prefix of its own, every
 * /api answer checked against the OpenAPI reference (contract.ts).
 * Rate limits are high unless a test lowers them; the embed access cache is off unless a test turns it on.
 */
export async function createHarness(env: Record<string, string> = {}): Promise<Harness> {
  const database = await createTestDatabase('helix_api');
  const prefix = `helixtest-${randomBytes(4).toString('hex')}`;
  const baseEnv = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_PREFIX: prefix,
    PUBLIC_URL: 'http://portal.test',
    RATE_LIMIT_MAX: '1000',
    // Tests change the database directly and expect the next call to see it; the embed access cache
    // has tests of its own (viewer.routes.test.ts, with it on).
    EMBED_ACCESS_CACHE_MS: '0',
    ...env,
  };
  const config = parseConfig(baseEnv);
  const logs = new LogCapture();
  const logger = createLogger(config.LOG_LEVEL, 'api-test', logs);
  const db = createTestDb(database.url);
  const redis = createRedis(REDIS_URL, TEST_COMMAND_CLIENT_OPTIONS);
  // As main.ts: the command client has no offline queue, so it must be connected before the first call.
  await redisReady(redis);
  const queueConnection = createRedis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new JobQueue(queueConnection, prefix);
  const deps: ServerDeps = { config, db, redis, queue, logger };
  return {
    app: checkedApp(createApp(deps)),
    deps,
    db,
    redis,
    config,
    logs,
    appWith: (more, draining) =>
      checkedApp(createApp({ ...deps, config: parseConfig({ ...baseEnv, ...more }) }, draining)),
    async twin(more = {}) {
      const twinConfig = parseConfig({ ...baseEnv, ...more });
      const twinDb = createTestDb(database.url);
      const twinRedis = createRedis(REDIS_URL, TEST_COMMAND_CLIENT_OPTIONS);
      await redisReady(twinRedis);
      const twinQueueConnection = createRedis(REDIS_URL, { maxRetriesPerRequest: null });
      const twinQueue = new JobQueue(twinQueueConnection, prefix);
      const twinDeps: ServerDeps = {
        ...deps,
        config: twinConfig,
        db: twinDb,
        redis: twinRedis,
        queue: twinQueue,
      };
      return {
        app: checkedApp(createApp(twinDeps)),
        deps: twinDeps,
        async close() {
          await twinQueue.close();
          twinQueueConnection.disconnect();
          // A test may have cut this connection (a Redis outage of one process): nothing left to quit.
          await twinRedis.quit().catch(() => twinRedis.disconnect());
          await twinDb.$disconnect();
        },
      };
    },
    async close() {
      await queue.close();
      queueConnection.disconnect();
      await deleteKeys(redis, `${prefix}:*`);
      await redis.quit();
      await db.$disconnect();
      await dropDatabase(database.name);
    },
  };
}

export async function deleteKeys(redis: Redis, pattern: string) {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
}
