import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { JOBS } from '@helix/shared';
import { createLogger } from '@helix/server';
import { createRedis } from '@helix/server/redis';
import { JobQueue } from '@helix/server/queue/job-queue';
import { buildHandlers } from './handlers/index.ts';
import { missingHandlers, startWorker, type JobHandler } from './registry.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const connection = createRedis(REDIS_URL, { maxRetriesPerRequest: null });
const logger = createLogger('silent', 'worker-test');
const prefix = `helixtest-${randomBytes(4).toString('hex')}`;

afterAll(async () => {
  const keys = await connection.keys(`${prefix}:*`);
  if (keys.length) await connection.del(...keys);
  connection.disconnect();
});

describe('job registry', () => {
  it('has a handler for every job contract', () => {
    const handlers = buildHandlers({ transport: {} as never, mailFrom: 'x@example.test' });
    expect(missingHandlers(handlers)).toEqual([]);
    expect(Object.keys(handlers).sort()).toEqual(
      Object.values(JOBS)
        .map((j) => j.name)
        .sort(),
    );
  });

  it('refuses to start when a job has no handler', () => {
    expect(() => startWorker({ connection, prefix, handlers: {}, logger })).toThrow(
      /No handler for job\(s\): send-email/,
    );
  });

  it('runs a job with its checked payload, and fails a payload that breaks the contract at once', async () => {
    const seen: unknown[] = [];
    const handler: JobHandler<'send-email'> = async (payload) => {
      seen.push(payload);
    };
    const others = buildHandlers({ transport: {} as never, mailFrom: 'x@example.test' });
    const worker = startWorker({
      connection,
      prefix,
      handlers: { ...others, 'send-email': handler },
      logger,
    });
    const queueConnection = createRedis(REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new JobQueue(queueConnection, prefix);
    try {
      const payload = { template: 'welcome' as const, to: 'a@example.test', vars: { name: 'A' } };
      await queue.enqueue(JOBS.sendEmail, payload, 'welcome-1');
      await queue.enqueue(JOBS.sendEmail, payload, 'welcome-1'); // the same jobId collapses
      const bad = await queue.queue.add('send-email', { template: 'nope' }, { jobId: 'bad-1' });
      const deadline = Date.now() + 10_000;
      while ((seen.length < 1 || !(await bad.isFailed())) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 200));
      expect(seen).toEqual([payload]);
      expect(await bad.isFailed()).toBe(true);
      expect((await queue.queue.getJob('bad-1'))?.attemptsMade).toBe(1);
      await expect(
        queue.enqueue(JOBS.sendEmail, { template: 'welcome', to: 'not-an-address', vars: {} }, 'x-1'),
      ).rejects.toThrow();
    } finally {
      await worker.close();
      await queue.close();
      queueConnection.disconnect();
    }
  });
});
