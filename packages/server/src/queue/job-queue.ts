import { Queue, QueueEvents, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { type z } from 'zod';
import { type JOBS, type JobName, QUEUE_NAME } from '@helix/shared';

export type JobDefinition = (typeof JOBS)[keyof typeof JOBS];

/**
 * Unless JOB_OPTIONS says otherwise, a job retries with exponential backoff (1 s, 2 s, 4 s, ...), five
 * attempts in all.
 */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { count: 1000 },
  removeOnFail: { count: 5000 },
};

/**
 * Per-job options over the defaults. send-email outlasts an SMTP outage of a few hours (10 attempts,
 * 30 s doubling: about 4 h 15 min in all) instead of giving up within seconds, and its failures stay
 * for a month so a lost reset or invitation e-mail can be found and retried.
 */
export const JOB_OPTIONS: Partial<Record<JobName, JobsOptions>> = {
  'send-email': {
    attempts: 10,
    backoff: { type: 'exponential', delay: 30_000 },
    removeOnFail: { age: 30 * 24 * 60 * 60, count: 10_000 },
  },
  // An invitation e-mail: the same patience as any e-mail (its row is marked failed after the last).
  'send-invite': {
    attempts: 10,
    backoff: { type: 'exponential', delay: 30_000 },
    removeOnFail: { age: 30 * 24 * 60 * 60, count: 10_000 },
  },
  // A support request: the same patience (the row is stored first; its sent markers stop a resend).
  'send-support-request': {
    attempts: 10,
    backoff: { type: 'exponential', delay: 30_000 },
    removeOnFail: { age: 30 * 24 * 60 * 60, count: 10_000 },
  },
  // Billing e-mails: the same patience (the receipt row's sent marker stops a resend).
  'billing-receipt': {
    attempts: 10,
    backoff: { type: 'exponential', delay: 30_000 },
    removeOnFail: { age: 30 * 24 * 60 * 60, count: 10_000 },
  },
  'billing-action-required': {
    attempts: 10,
    backoff: { type: 'exponential', delay: 30_000 },
    removeOnFail: { age: 30 * 24 * 60 * 60, count: 10_000 },
  },
};

/**
 * The producer side of the job contracts (packages/shared/src/jobs.ts). Call `enqueue` after the
 * database transaction has committed, with a jobId naming the thing the job is about, so a retry or a
 * double click collapses into one job.
 */
export class JobQueue {
  readonly queue: Queue;
  private readonly connection: Redis;
  private readonly prefix: string;
  private events?: Promise<QueueEvents>;

  constructor(connection: Redis, prefix: string) {
    this.queue = new Queue(QUEUE_NAME, { connection, prefix, defaultJobOptions: DEFAULT_JOB_OPTIONS });
    this.connection = connection;
    this.prefix = prefix;
  }

  /**
   * Enqueue and wait for the job's result while a request is open (request-time checks done by the
   * worker, e.g. validate-image). Rejects when the job fails or does not finish within timeoutMs.
   * The QueueEvents listener (its own Redis connection) is made on first use and closed by close().
   */
  async run<J extends JobDefinition>(
    job: J,
    payload: z.input<J['payload']>,
    jobId: string,
    options: { timeoutMs: number; attempts?: number },
  ): Promise<unknown> {
    const data = job.payload.parse(payload);
    this.events ??= (async () => {
      // QueueEvents blocks on its connection: its own duplicate, closed with it.
      const events = new QueueEvents(QUEUE_NAME, {
        connection: this.connection.duplicate(),
        prefix: this.prefix,
      });
      await events.waitUntilReady();
      return events;
    })();
    const events = await this.events;
    const added = await this.queue.add(job.name, data, { jobId, attempts: options.attempts ?? 2 });
    return added.waitUntilFinished(events, options.timeoutMs);
  }

  async enqueue<J extends JobDefinition>(
    job: J,
    payload: z.input<J['payload']>,
    jobId: string,
    options: { delayMs?: number } = {},
  ): Promise<void> {
    const data = job.payload.parse(payload);
    await this.queue.add(job.name, data, {
      ...JOB_OPTIONS[job.name],
      jobId,
      ...(options.delayMs ? { delay: options.delayMs } : {}),
    });
  }

  async close(): Promise<void> {
    if (this.events) await (await this.events.catch(() => undefined))?.close();
    await this.queue.close();
  }
}
