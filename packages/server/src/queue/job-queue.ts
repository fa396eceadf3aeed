import { Queue, QueueEvents, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import type { z } from 'zod';
import {
  MSG,
  QUEUE_FAMILIES,
  QUEUE_FAMILY_NAMES,
  type JobDefinition,
  type QueueFamily,
  type QueueFamilyName,
} from '@helix/shared';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { AppError } from '../errors.ts';
import { currentRequestId } from '../request-context.ts';
import { isRedisUnavailable } from '../redis.ts';

/**
 * The request a job was enqueued from, kept in the job's options (BullMQ stores options it does not
 * know as they are): the worker logs it with the job's lines, so one id follows a request into its jobs.
 */
export type TracedJobOptions = JobsOptions & { requestId?: string };

const traced = (options: JobsOptions): TracedJobOptions => {
  const requestId = currentRequestId();
  return requestId ? { ...options, requestId } : options;
};

/** The id of the request that enqueued a job, if any. */
export const requestIdOf = (job: { opts: JobsOptions }): string | undefined =>
  (job.opts as TracedJobOptions).requestId;

/** The backoff type the worker's strategy answers (capped exponential, from the family's RetryPolicy). */
export const RETRY_BACKOFF_TYPE = 'capped-exponential';

/** A family's job options: its retry policy and how long finished jobs are kept. */
export function jobOptionsOf(family: QueueFamily): JobsOptions {
  return {
    attempts: family.retry.attempts,
    backoff: { type: RETRY_BACKOFF_TYPE, delay: family.retry.baseMs },
    removeOnComplete: { count: family.keepCompleted },
    removeOnFail: {
      count: family.keepFailed,
      ...(family.keepFailedDays ? { age: family.keepFailedDays * 24 * 3600 } : {}),
    },
  };
}

/** How long a producer waits for Redis to take a job before it answers 503 (a request never hangs). */
const LIVE_STATES = new Set(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children']);

export const DEFAULT_ADD_TIMEOUT_MS = 1_000;

export const queueUnavailable = () =>
  new AppError(ERROR_CODES.queueUnavailable, {
    status: 503,
    message: MSG.queueUnavailable,
    error: 'Service Unavailable',
  });

/** Rejects with QUEUE_UNAVAILABLE when `work` has not settled within `ms`. */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(queueUnavailable()), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
    // The add may still land after the answer: its jobId makes the caller's retry collapse into it.
    work.catch(() => undefined);
  }
}

export interface JobQueueOptions {
  /**
   * The 'error' events of its BullMQ queues and queue events (a lost Redis connection, once per
   * reconnect attempt): e.g. redisErrorReporter, which counts connection errors towards the outage
   * logged once. Without it connection errors are dropped (the connection's watcher reports the
   * outage) and others are printed.
   */
  onError?: (error: unknown) => void;
  /** See DEFAULT_ADD_TIMEOUT_MS; the worker's own adds (dispatching a batch) may wait longer. */
  addTimeoutMs?: number;
}

/**
 * The one producer of every job contract (packages/shared/src/jobs.ts): a BullMQ Queue per family,
 * made once; enqueue and run pick the family from the job's declaration. Call `enqueue` after the
 * database transaction committed, with a jobId naming the thing the job is about, so a retry or a
 * double click collapses into one job. An add that Redis does not take within addTimeoutMs rejects
 * with AppError 503 QUEUE_UNAVAILABLE.
 */
export class JobQueue {
  private readonly queues: Record<QueueFamilyName, Queue>;
  private readonly events = new Map<QueueFamilyName, Promise<QueueEvents>>();
  private readonly addTimeoutMs: number;
  private readonly onError: (error: unknown) => void;

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
    options: JobQueueOptions = {},
  ) {
    this.addTimeoutMs = options.addTimeoutMs ?? DEFAULT_ADD_TIMEOUT_MS;
    // Without a listener BullMQ prints each error with its stack (a multi-line dump per reconnect).
    this.onError =
      options.onError ??
      ((error) => {
        if (!isRedisUnavailable(error)) console.error(error);
      });
    this.queues = Object.fromEntries(
      QUEUE_FAMILY_NAMES.map((name) => {
        const family: QueueFamily = QUEUE_FAMILIES[name];
        const queue = new Queue(family.queue, {
          connection,
          prefix,
          defaultJobOptions: jobOptionsOf(family),
        });
        queue.on('error', this.onError);
        return [name, queue];
      }),
    ) as Record<QueueFamilyName, Queue>;
  }

  /** The BullMQ queue of a family (tests and operators' tools read jobs through it). */
  queueOf(family: QueueFamilyName): Queue {
    return this.queues[family];
  }

  /** The BullMQ queue a job is added to. */
  queueFor(job: JobDefinition): Queue {
    return this.queues[job.family];
  }

  async enqueue<J extends JobDefinition>(
    job: J,
    payload: z.input<J['payload']>,
    jobId: string,
    options: { delayMs?: number } = {},
  ): Promise<void> {
    const data = job.payload.parse(payload);
    await within(
      this.addTimeoutMs,
      this.queueFor(job).add(
        job.name,
        data,
        traced({ jobId, ...(options.delayMs ? { delay: options.delayMs } : {}) }),
      ),
    );
  }

  /** Many jobs of one contract in one round trip (a bulk invite's rows); existing jobIds are kept. */
  async enqueueMany<J extends JobDefinition>(
    job: J,
    items: ReadonlyArray<{ payload: z.input<J['payload']>; jobId: string }>,
  ): Promise<void> {
    const jobs = items.map((item) => ({
      name: job.name,
      data: job.payload.parse(item.payload),
      opts: traced({ jobId: item.jobId }),
    }));
    await within(this.addTimeoutMs, this.queueFor(job).addBulk(jobs));
  }

  /**
   * Of `jobIds`, those with a job that will still run (waiting, delayed, active, prioritized or
   * waiting for children); a completed, failed or missing job is not live.
   */
  async liveJobIds(job: JobDefinition, jobIds: readonly string[]): Promise<Set<string>> {
    const queue = this.queueFor(job);
    const states = await within(
      this.addTimeoutMs * 5,
      Promise.all(jobIds.map(async (id) => [id, await queue.getJobState(id)] as const)),
    );
    return new Set(states.filter(([, state]) => LIVE_STATES.has(state)).map(([id]) => id));
  }

  /**
   * Adds jobs whose jobId may be held by a finished job (completed or failed, kept for the record): the
   * finished job is removed first, so the add is not collapsed into it. A live job is kept.
   */
  async enqueueAgain<J extends JobDefinition>(
    job: J,
    items: ReadonlyArray<{ payload: z.input<J['payload']>; jobId: string }>,
  ): Promise<void> {
    const queue = this.queueFor(job);
    await within(
      this.addTimeoutMs * 5,
      Promise.all(
        items.map(async (item) => {
          const state = await queue.getJobState(item.jobId);
          if (state === 'completed' || state === 'failed') await queue.remove(item.jobId);
        }),
      ),
    );
    await this.enqueueMany(job, items);
  }

  /** Repeats a job every `everyMs` (one scheduler per job name; a second call updates it). */
  async schedule<J extends JobDefinition>(job: J, everyMs: number, payload: z.input<J['payload']>) {
    const data = job.payload.parse(payload);
    await within(
      this.addTimeoutMs,
      this.queueFor(job).upsertJobScheduler(
        job.name,
        { every: everyMs },
        { name: job.name, data, opts: { attempts: 1, removeOnComplete: true, removeOnFail: { count: 100 } } },
      ),
    );
  }

  /**
   * Enqueue and wait for the job's result while a request is open (request-time checks done by the
   * worker, e.g. validate-image). Rejects when the job fails or does not finish within timeoutMs.
   * The family's QueueEvents listener (its own Redis connection) is made on first use.
   */
  async run<J extends JobDefinition>(
    job: J,
    payload: z.input<J['payload']>,
    jobId: string,
    options: { timeoutMs: number; attempts?: number },
  ): Promise<unknown> {
    const data = job.payload.parse(payload);
    const events = await within(this.addTimeoutMs, this.eventsOf(job.family));
    const added = await within(
      this.addTimeoutMs,
      this.queueFor(job).add(
        job.name,
        data,
        traced({ jobId, ...(options.attempts ? { attempts: options.attempts } : {}) }),
      ),
    );
    return added.waitUntilFinished(events, options.timeoutMs);
  }

  private eventsOf(family: QueueFamilyName): Promise<QueueEvents> {
    let events = this.events.get(family);
    if (!events) {
      events = (async () => {
        // QueueEvents blocks on its connection: its own duplicate, closed with it.
        const listener = new QueueEvents(QUEUE_FAMILIES[family].queue, {
          connection: this.connection.duplicate(),
          prefix: this.prefix,
        });
        listener.on('error', this.onError);
        await listener.waitUntilReady();
        return listener;
      })();
      // A failed start (Redis down) is tried again by the next call.
      events.catch(() => this.events.delete(family));
      this.events.set(family, events);
    }
    return events;
  }

  async close(): Promise<void> {
    for (const events of this.events.values()) await (await events.catch(() => undefined))?.close();
    await Promise.all(Object.values(this.queues).map((queue) => queue.close()));
  }
}
