import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS } from '@helix/shared';
import { createRedis, type Redis } from '../redis.ts';
import { DEFAULT_JOB_OPTIONS, JobQueue } from './job-queue.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `helixtest-${randomBytes(4).toString('hex')}`;
let connection: Redis;
let queue: JobQueue;

beforeAll(() => {
  connection = createRedis(REDIS_URL, { maxRetriesPerRequest: null });
  queue = new JobQueue(connection, prefix);
});
afterAll(async () => {
  await queue.queue.obliterate({ force: true });
  await queue.close();
  connection.disconnect();
});

describe('job options', () => {
  it('retries an e-mail for hours, not seconds, and keeps it when it fails', async () => {
    await queue.enqueue(
      JOBS.sendEmail,
      { template: 'welcome', to: 'someone@example.test', vars: { name: 'Someone' } },
      'welcome-opts-1',
    );
    const job = await queue.queue.getJob('welcome-opts-1');
    expect(job?.opts).toMatchObject({
      attempts: 10,
      backoff: { type: 'exponential', delay: 30_000 },
      removeOnFail: { age: 30 * 24 * 60 * 60, count: 10_000 },
      removeOnComplete: DEFAULT_JOB_OPTIONS.removeOnComplete,
    });
    // 30 s doubling over 9 waits: more than four hours before the last attempt.
    const waits = Array.from({ length: 9 }, (_, i) => 30 * 2 ** i);
    expect(waits.reduce((a, b) => a + b, 0)).toBeGreaterThan(4 * 60 * 60);
  });

  it('keeps the defaults for other jobs', async () => {
    await queue.enqueue(JOBS.flushViews, { reason: 'manual' }, 'flush-opts-1');
    const job = await queue.queue.getJob('flush-opts-1');
    expect(job?.opts).toMatchObject({
      attempts: DEFAULT_JOB_OPTIONS.attempts,
      backoff: DEFAULT_JOB_OPTIONS.backoff,
      removeOnFail: DEFAULT_JOB_OPTIONS.removeOnFail,
    });
  });
});
