import { Worker, UnrecoverableError, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import {
  JOBS,
  QUEUE_FAMILIES,
  QUEUE_FAMILY_NAMES,
  jobNamed,
  retryDelayMs,
  type JobName,
  type JobPayload,
  type QueueFamilyName,
  type RetryPolicy,
} from '@helix/shared';
import { jobOutcomes, jobRunSeconds, jobWaitSeconds } from '@helix/server/metrics/metrics';
import { requestIdOf } from '@helix/server/queue/job-queue';
import { runInRequest } from '@helix/server/request-context';
import type { DependencyOutage } from '@helix/server/health/dependency-outage';
import { isRedisUnavailable, redisErrorReporter } from '@helix/server/redis';

/**
 * A handler receives the payload already checked against its contract, the job, the worker's lock
 * token (to move the job, e.g. delay it) and a signal aborted when the worker is stopping (a long job
 * may then leave the rest of its work to other jobs rather than hold the drain up). What it answers
 * becomes the job's return value (a producer waiting with JobQueue.run gets it, e.g. validate-image's
 * result).
 */
export type JobHandler<N extends JobName = JobName> = (
  payload: JobPayload<N>,
  job: Job,
  token?: string,
  stopping?: AbortSignal,
) => Promise<unknown>;

/** One handler per declared job: the compiler checks the map, missingHandlers checks it at start. */
export type JobHandlers = { [N in JobName]: JobHandler<N> };

export function missingHandlers(handlers: Partial<Record<string, unknown>>): string[] {
  return Object.values(JOBS)
    .map((job) => job.name)
    .filter((name) => typeof handlers[name] !== 'function');
}

export interface WorkersOptions {
  connection: Redis;
  prefix: string;
  handlers: Partial<JobHandlers>;
  logger: Logger;
  /** Families to run in this process (default all); the handler check covers every job regardless. */
  families?: readonly QueueFamilyName[];
  /** Per-family concurrency over the declared one (images: IMAGE_CHECK_CONCURRENCY). */
  concurrency?: Partial<Record<QueueFamilyName, number>>;
  /** JOB_RETRY_MAX_DELAY_MS: caps every family's retry wait (drills and tests). */
  retryMaxDelayMs?: number;
  /**
   * The queue connection's outage (watchRedis): a worker's connection errors count towards it instead
   * of a line each; without it they are logged at warn.
   */
  redisOutage?: Pick<DependencyOutage, 'failed'>;
  /**
   * How long a job's lock lasts without renewal: a worker killed mid-job gives its jobs back after
   * about this long plus stalledInterval, and a restarted worker runs them again.
   */
  lockDuration?: number;
  stalledInterval?: number;
}

export interface Workers {
  workers: Map<QueueFamilyName, Worker>;
  /** Stops taking jobs and waits for the running ones. */
  close(): Promise<void>;
}

const policyOf = (jobName: string | undefined): RetryPolicy | undefined => {
  const definition = jobName ? jobNamed(jobName) : undefined;
  return definition ? QUEUE_FAMILIES[definition.family].retry : undefined;
};

/**
 * One BullMQ worker per queue family (Immich's shape), each with its family's concurrency and retry
 * policy, so image checks, mail, the views flush and billing never wait behind each other. Refuses to
 * start (throws) when a declared job has no handler. A payload that breaks its contract fails at once
 * (UnrecoverableError: no retry would fix it); any other failure is retried with the family's capped
 * exponential backoff.
 */
export function startWorkers(options: WorkersOptions): Workers {
  const missing = missingHandlers(options.handlers);
  if (missing.length > 0) throw new Error(`No handler for job(s): ${missing.join(', ')}`);
  const handlers = options.handlers as JobHandlers;
  const cap = options.retryMaxDelayMs ?? Number.POSITIVE_INFINITY;

  const workers = new Map<QueueFamilyName, Worker>();
  const stopping = new AbortController();
  for (const family of options.families ?? QUEUE_FAMILY_NAMES) {
    const declared = QUEUE_FAMILIES[family];
    const worker = new Worker(
      declared.queue,
      async (job, token) => {
        const definition = jobNamed(job.name);
        if (!definition || definition.family !== family)
          throw new UnrecoverableError(`Unknown job ${job.name} in queue ${declared.queue}`);
        const parsed = definition.payload.safeParse(job.data);
        if (!parsed.success)
          throw new UnrecoverableError(`Invalid payload for ${job.name}: ${parsed.error.message}`);
        const handler = handlers[definition.name] as JobHandler;
        // The handler's log lines (and the jobs it enqueues) carry the request that enqueued this one.
        const requestId = requestIdOf(job);
        const run = () => handler(parsed.data as never, job, token, stopping.signal);
        return requestId ? runInRequest({ requestId }, run) : run();
      },
      {
        connection: options.connection,
        prefix: options.prefix,
        concurrency: options.concurrency?.[family] ?? declared.concurrency,
        lockDuration: options.lockDuration ?? 15_000,
        stalledInterval: options.stalledInterval ?? 5_000,
        // A job survives a few crashes of its worker; after that it fails (and is kept) for a person.
        maxStalledCount: 5,
        settings: {
          backoffStrategy: (attemptsMade, _type, _err, job) => {
            const policy = policyOf(job?.name) ?? declared.retry;
            return retryDelayMs({ baseMs: policy.baseMs, capMs: Math.min(policy.capMs, cap) }, attemptsMade);
          },
        },
      },
    );
    worker.on('active', (job) => {
      // A first attempt's wait: since it was added, or since its delay ended (retries wait on purpose).
      if (job.attemptsMade > 0) return;
      const since = job.timestamp + (job.delay ?? 0);
      jobWaitSeconds.observe({ family, job: job.name }, Math.max(0, Date.now() - since) / 1000);
    });
    const finished = (job: Job, outcome: 'completed' | 'failed') => {
      jobOutcomes.inc({ family, job: job.name, outcome });
      if (job.processedOn) {
        jobRunSeconds.observe({ family, job: job.name }, Math.max(0, Date.now() - job.processedOn) / 1000);
      }
    };
    // Routine jobs (the views flush every 2 s) log at debug; failures at warn. Each line carries the
    // id of the request that enqueued the job, if one did.
    worker.on('completed', (job) => {
      finished(job, 'completed');
      options.logger.debug({ jobId: job.id, job: job.name, requestId: requestIdOf(job) }, 'job done');
    });
    worker.on('failed', (job, err) => {
      if (job) finished(job, 'failed');
      options.logger.warn(
        {
          jobId: job?.id,
          job: job?.name,
          attempt: job?.attemptsMade,
          requestId: job && requestIdOf(job),
          err,
        },
        'job failed',
      );
    });
    // A Redis outage is logged by its watcher (start and end); other worker errors stay at error.
    const redisError = options.redisOutage
      ? redisErrorReporter(options.redisOutage, options.logger, { queue: declared.queue })
      : undefined;
    worker.on('error', (err) => {
      if (redisError && isRedisUnavailable(err)) redisError(err);
      else options.logger.error({ err, queue: declared.queue }, 'worker error');
    });
    workers.set(family, worker);
  }
  return {
    workers,
    async close() {
      stopping.abort();
      await Promise.all([...workers.values()].map((worker) => worker.close()));
    },
  };
}
