import { afterAll, describe, expect, it } from 'vitest';
import { COMMAND_CLIENT_OPTIONS, createRedis, redisReady, type Redis } from '../redis.ts';
import { viewCommands, viewSnapshot } from './view-store.ts';

/**
 * The view scripts on an auto-pipelining command client (COMMAND_CLIENT_OPTIONS). With ioredis 5, a
 * script defined on its first call fails ("pipeline[functionName] is not a function") when another
 * command's auto-pipeline is already pending in the same tick: a 500 on the first list of models after
 * a start. The API and the worker define them when they start (app.ts, worker-runtime.ts).
 */
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const clients: Redis[] = [];
const fresh = async () => {
  // The production client's pipelining, with a timeout a loaded test machine cannot reach (800 ms is
  // for a production request facing a Redis that stopped answering, not for this check).
  const redis = createRedis(REDIS_URL, { ...COMMAND_CLIENT_OPTIONS, commandTimeout: 15_000 });
  clients.push(redis);
  await redisReady(redis);
  return redis;
};
afterAll(() => clients.forEach((c) => c.disconnect()));

/** A read and the view snapshot started in the same tick, as two requests' work can be. */
const sameTick = (redis: Redis) =>
  Promise.allSettled([
    redis.get('helix-view-commands-test'),
    viewSnapshot(redis, 'helix-view-commands-test'),
  ]);

describe('the view scripts on an auto-pipelining client', () => {
  it('answer beside a command pending in the same tick when defined up front', async () => {
    const redis = await fresh();
    viewCommands(redis);
    expect((await sameTick(redis)).map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
  });
});
