import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { COMMAND_CLIENT_OPTIONS, createRedis, defineScript, redisReady } from './redis.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('defineScript', () => {
  it('a script defined while the turn’s automatic pipeline is open runs in it; every caller is answered', async () => {
    const redis = createRedis(REDIS_URL, COMMAND_CLIENT_OPTIONS);
    const key = `helix-test:define-script:${randomBytes(4).toString('hex')}`;
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      expect(await redisReady(redis, 10_000)).toBe(true);
      // In one turn: a command opens the automatic pipeline, then a script is defined and called in it
      // (ioredis threw there, and the pipeline's answer then ended the process).
      const first = redis.incr(key);
      defineScript(redis, 'helixTestAddTwo', {
        numberOfKeys: 1,
        lua: "return redis.call('INCRBY', KEYS[1], 2)",
      });
      const second = (redis as unknown as { helixTestAddTwo(key: string): Promise<number> }).helixTestAddTwo(
        key,
      );
      const third = redis.get(key);
      expect(await Promise.all([first, second, third])).toEqual([1, 3, '3']);
      await new Promise((resolve) => setImmediate(resolve));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await redis.del(key).catch(() => undefined);
      redis.disconnect();
    }
  });
});
