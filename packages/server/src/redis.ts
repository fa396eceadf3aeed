import { Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis client. Every key the app writes itself is prefixed with REDIS_PREFIX by `redisKey`;
 * BullMQ prefixes its own keys with the same value.
 */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: 3, ...options });
}

export const redisKey = (prefix: string, ...parts: string[]): string => [prefix, ...parts].join(':');

export type { Redis };
