import client from 'prom-client';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { QUEUE_FAMILY_NAMES } from '@helix/shared';
import type { JobQueue } from '../queue/job-queue.ts';
import { viewKeys } from '../views/view-store.ts';
import { metricsRegistry } from './metrics.ts';

/** A scrape never waits on a stalled Redis longer than this (the series is left out instead). */
const SCRAPE_TIMEOUT_MS = 1_000;

function within<T>(work: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), SCRAPE_TIMEOUT_MS);
  });
  return Promise.race([work.catch(() => undefined), timeout]).finally(() => clearTimeout(timer));
}

/** A gauge read at scrape time: the runtime made last owns it (one per process; tests make several). */
function collectedBy(name: string, make: () => void): void {
  metricsRegistry.removeSingleMetric(name);
  make();
}

const JOB_STATES = ['waiting', 'active', 'delayed', 'failed', 'prioritized', 'waiting-children'] as const;

/** Jobs per queue family and state, read from Redis at scrape time. */
export function registerQueueDepth(queue: JobQueue): void {
  collectedBy('helix_queue_jobs', () => {
    new client.Gauge({
      name: 'helix_queue_jobs',
      help: 'Jobs in each queue family by state (waiting, active, delayed, failed, ...), at scrape time',
      labelNames: ['family', 'state'] as const,
      async collect() {
        this.reset();
        await Promise.all(
          QUEUE_FAMILY_NAMES.map(async (family) => {
            const counts = await within(queue.queueOf(family).getJobCounts(...JOB_STATES));
            for (const [state, count] of Object.entries(counts ?? {})) this.set({ family, state }, count);
          }),
        );
      },
    });
  });
}

/** View entries (model, tenant, day, viewer) counted in Redis and not yet flushed to PostgreSQL. */
export function registerViewBuffer(redis: Redis, prefix: string): void {
  collectedBy('helix_views_pending_entries', () => {
    const key = viewKeys(prefix).pending;
    new client.Gauge({
      name: 'helix_views_pending_entries',
      help: 'View entries in Redis not yet taken by a flush, at scrape time',
      async collect() {
        const entries = await within(redis.hlen(key));
        if (entries !== undefined) this.set(entries);
      },
    });
  });
}

/** The database pool: connections open, idle, and queries waiting for one. */
export function registerDbPool(pool: pg.Pool): void {
  collectedBy('helix_db_pool_connections', () => {
    new client.Gauge({
      name: 'helix_db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting: queries waiting for one)',
      labelNames: ['state'] as const,
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  });
}
