import { Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis client. Every key the app writes itself is prefixed with REDIS_PREFIX by `redisKey`;
 * BullMQ prefixes its own keys with the same value.
 */
export function createRedis(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: 3, ...options });
}

/**
 * Options for a process's command client (not for BullMQ's connections, whose blocking commands must
 * not wait in a pipeline): commands issued in the same turn of the event loop go to Redis in one write
 * (auto-pipelining), so under load many requests' commands cost one system call instead of one each.
 * Each command still gets its own reply or error, in order.
 */
export const COMMAND_CLIENT_OPTIONS: RedisOptions = { enableAutoPipelining: true };

export const redisKey = (prefix: string, ...parts: string[]): string => [prefix, ...parts].join(':');

export type { Redis };
