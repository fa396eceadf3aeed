import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS, MAIL_RETRY, QUEUE_FAMILIES, retryDelayMs, retryWindowMs } from '@helix/shared';
import { createRedis, type Redis } from '../redis.ts';
import { AppError } from '../errors.ts';
import { JobQueue, RETRY_BACKOFF_TYPE } from './job-queue.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `helixtest-${randomBytes(4).toString('hex')}`;
let connection: Redis;
let queue: JobQueue;

beforeAll(() => {
  connection = createRedis(REDIS_URL, { maxRetriesPerRequest: null });
  queue = new JobQueue(connection, prefix);
});
afterAll(async () => {
  for (const family of Object.keys(QUEUE_FAMILIES) as Array<keyof typeof QUEUE_FAMILIES>) {
    await queue.queueOf(family).obliterate({ force: true });
  }
  await queue.close();
  connection.disconnect();
});

describe('the retry policy of e-mail', () => {
  it('outlives a two-hour SMTP outage, retrying soon at first and every 5 minutes at most', () => {
    expect(retryWindowMs(MAIL_RETRY)).toBeGreaterThan(2 * 3600_000);
    expect(retryDelayMs(MAIL_RETRY, 1)).toBe(2_000);
    expect(retryDelayMs(MAIL_RETRY, 2)).toBe(4_000);
    expect(retryDelayMs(MAIL_RETRY, 30)).toBe(5 * 60_000);
    // Single and bulk invitations share it.
    expect(QUEUE_FAMILIES.email.retry).toBe(MAIL_RETRY);
    expect(QUEUE_FAMILIES['bulk-invite'].retry).toBe(MAIL_RETRY);
  });
});

describe('the producer', () => {
  it('adds each job to its family’s queue with the family’s retry policy', async () => {
    await queue.enqueue(
      JOBS.sendEmail,
      { template: 'welcome', to: 'someone@example.test', vars: { name: 'Someone' } },
      'welcome-opts-1',
    );
    await queue.enqueue(JOBS.flushViews, { reason: 'manual' }, 'flush-opts-1');
    await queue.enqueue(JOBS.bulkInviteRow, { batchId: 1, inviteId: 2 }, 'invite-2');

    const mail = await queue.queueOf('email').getJob('welcome-opts-1');
    expect(mail?.opts).toMatchObject({
      attempts: MAIL_RETRY.attempts,
      backoff: { type: RETRY_BACKOFF_TYPE, delay: MAIL_RETRY.baseMs },
      removeOnFail: { age: 30 * 24 * 3600, count: 10_000 },
    });
    const views = await queue.queueOf('views').getJob('flush-opts-1');
    expect(views?.opts.attempts).toBe(QUEUE_FAMILIES.views.retry.attempts);
    expect(await queue.queueOf('email').getJob('flush-opts-1')).toBeUndefined();
    expect((await queue.queueOf('bulk-invite').getJob('invite-2'))?.name).toBe('bulk-invite-row');
    expect(queue.queueFor(JOBS.validateImage).name).toBe('images');
  });

  it('refuses a payload that breaks its contract', async () => {
    await expect(
      queue.enqueue(JOBS.sendEmail, { template: 'welcome', to: 'not-an-address', vars: {} }, 'x-1'),
    ).rejects.toThrow();
  });

  it('answers 503 QUEUE_UNAVAILABLE instead of hanging when Redis does not answer', async () => {
    // A server that accepts the connection and never answers: the client waits, as in an outage.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const dead = createRedis(`redis://127.0.0.1:${port}`, { maxRetriesPerRequest: null });
    const stuck = new JobQueue(dead, prefix, { addTimeoutMs: 300 });
    try {
      const error = await stuck.enqueue(JOBS.flushViews, { reason: 'manual' }, 'never').then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ status: 503, code: 'QUEUE_UNAVAILABLE' });
    } finally {
      dead.disconnect();
      silent.close();
    }
  });
});
