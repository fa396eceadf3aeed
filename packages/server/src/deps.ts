import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type { Config } from './config.ts';
import type { Db } from './db.ts';
import type { JobQueue } from './queue/job-queue.ts';
import type { Storage } from './storage/storage.ts';

/** What commands need from the process: built once in main.ts (or by a test) and passed down. */
export interface ServerDeps {
  config: Config;
  db: Db;
  redis: Redis;
  queue: JobQueue;
  logger: Logger;
  /** Object storage; when absent, storageOf(deps) makes one from the configuration. */
  storage?: Storage;
}
