import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS, QUEUE_FAMILIES, QUEUE_FAMILY_NAMES } from '@helix/shared';
import { createLogger, parseConfig } from '@helix/server';
import { createRedis } from '@helix/server/redis';
import { missingHandlers, startWorkers, type JobHandler, type JobHandlers } from './registry.ts';
import { createWorkerRuntime, type WorkerRuntime } from './worker-runtime.ts';
import { LEGACY_QUEUE, moveLegacyJobs } from './legacy-queue.ts';
import { Queue } from 'bullmq';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const connection = createRedis(REDIS_URL, { maxRetriesPerRequest: null });
const logger = createLogger('silent', 'worker-test');
const prefix = `helixtest-${randomBytes(4).toString('hex')}`;
let runtime: WorkerRuntime;

beforeAll(() => {
  // The worker's real dependencies, built from configuration as main.ts does (no job here touches the
  // database, so it need not exist).
  const config = parseConfig({
    DATABASE_URL: 'postgresql://127.0.0.1:5432/helix_registry_unused',
    REDIS_URL,
    REDIS_PREFIX: prefix,
    IMAGE_CHECK_CONCURRENCY: '3',
  });
  runtime = createWorkerRuntime(config, logger);
});
afterAll(async () => {
  await runtime.stop();
  const keys = await connection.keys(`${prefix}:*`);
  if (keys.length) await connection.del(...keys);
  connection.disconnect();
});

const until = async (check: () => Promise<boolean> | boolean, what: string, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('job registry', () => {
  it('has a handler for every declared job, each job in one of the families', () => {
    expect(missingHandlers(runtime.handlers)).toEqual([]);
    expect(Object.keys(runtime.handlers).sort()).toEqual(
      Object.values(JOBS)
        .map((j) => j.name)
        .sort(),
    );
    for (const job of Object.values(JOBS)) expect(QUEUE_FAMILY_NAMES).toContain(job.family);
  });

  it('refuses to start when a declared job has no handler', () => {
    const { 'bulk-invite-row': _dropped, ...others } = runtime.handlers;
    expect(() => startWorkers({ connection, prefix, handlers: others, logger })).toThrow(
      /No handler for job\(s\): bulk-invite-row/,
    );
    expect(() => startWorkers({ connection, prefix, handlers: {}, logger })).toThrow(/send-email/);
  });

  it('runs one worker per family with the family’s concurrency', async () => {
    const workers = startWorkers({
      connection,
      prefix,
      handlers: runtime.handlers,
      logger,
      concurrency: { images: 3 },
    });
    try {
      expect([...workers.workers.keys()].sort()).toEqual([...QUEUE_FAMILY_NAMES].sort());
      for (const [family, worker] of workers.workers) {
        expect(worker.name).toBe(QUEUE_FAMILIES[family].queue);
        expect(worker.concurrency).toBe(family === 'images' ? 3 : QUEUE_FAMILIES[family].concurrency);
      }
    } finally {
      await workers.close();
    }
  });

  it('runs a job with its checked payload, fails a broken payload at once, and mail never waits behind image checks', async () => {
    const seen: unknown[] = [];
    const sendEmail: JobHandler<'send-email'> = async (payload) => {
      seen.push(payload);
    };
    let release = () => undefined as void;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    let imagesStarted = 0;
    // Image checks that hold every images slot until released.
    const validateImage: JobHandler<'validate-image'> = async () => {
      imagesStarted += 1;
      await stuck;
      return { ok: false, message: 'held' };
    };
    const handlers: JobHandlers = {
      ...runtime.handlers,
      'send-email': sendEmail,
      'validate-image': validateImage,
    };
    const workers = startWorkers({
      connection,
      prefix,
      handlers,
      logger,
      families: ['email', 'images'],
      concurrency: { images: 2 },
    });
    const queue = runtime.queue;
    try {
      for (let i = 0; i < 4; i += 1) {
        await queue.enqueue(JOBS.validateImage, { key: `tmp/held-image-${i}`, purpose: 'logo' }, `img-${i}`);
      }
      await until(() => imagesStarted === 2, 'the image checks to fill their slots');
      const payload = { template: 'welcome' as const, to: 'a@example.test', vars: { name: 'A' } };
      await queue.enqueue(JOBS.sendEmail, payload, 'welcome-1');
      await queue.enqueue(JOBS.sendEmail, payload, 'welcome-1'); // the same jobId collapses
      const bad = await queue.queueOf('email').add('send-email', { template: 'nope' }, { jobId: 'bad-1' });
      await until(async () => seen.length >= 1 && (await bad.isFailed()), 'the e-mail and the bad job');
      expect(imagesStarted).toBe(2); // still held: the e-mail did not wait for them
      await new Promise((r) => setTimeout(r, 200));
      expect(seen).toEqual([payload]);
      expect((await queue.queueOf('email').getJob('bad-1'))?.attemptsMade).toBe(1);
    } finally {
      release();
      await workers.close();
    }
  });

  it('moves jobs left in the old shared queue to their families after an upgrade', async () => {
    const legacy = new Queue(LEGACY_QUEUE, { connection, prefix });
    try {
      const payload = { template: 'welcome', to: 'old@example.test', vars: { name: 'Old' } };
      await legacy.add('send-email', payload, { jobId: 'reset-old-1', delay: 60_000 });
      await legacy.upsertJobScheduler('flush-views', { every: 2_000 }, { name: 'flush-views', data: {} });
      expect(await moveLegacyJobs(connection, prefix, runtime.queue, logger)).toBe(1);
      expect((await runtime.queue.queueOf('email').getJob('reset-old-1'))?.data).toEqual(payload);
      expect(await legacy.getJobSchedulers()).toEqual([]);
      expect(await legacy.getJobCounts('waiting', 'delayed')).toEqual({ waiting: 0, delayed: 0 });
    } finally {
      await legacy.close();
    }
  });
});
