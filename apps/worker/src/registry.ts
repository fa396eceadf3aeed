import { Worker, UnrecoverableError, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { JOBS, QUEUE_NAME, type JobName } from '@helix/shared';
import type { z } from 'zod';

type Definitions = (typeof JOBS)[keyof typeof JOBS];
type PayloadOf<N extends JobName> = z.output<Extract<Definitions, { name: N }>['payload']>;

/**
 * A handler receives the payload already checked against its contract. What it answers becomes the
 * job's return value (a producer waiting with JobQueue.run gets it, e.g. validate-image's result).
 */
export type JobHandler<N extends JobName = JobName> = (payload: PayloadOf<N>, job: Job) => Promise<unknown>;

/** One handler per job name in JOBS: the compiler checks the map, missingHandlers checks it at start. */
export type JobHandlers = { [N in JobName]: JobHandler<N> };

export function missingHandlers(handlers: Partial<Record<string, unknown>>): string[] {
  return Object.values(JOBS)
    .map((job) => job.name)
    .filter((name) => typeof handlers[name] !== 'function');
}

const definitionOf = (name: string): Definitions | undefined =>
  Object.values(JOBS).find((job) => job.name === name);

export interface WorkerOptions {
  connection: Redis;
  prefix: string;
  handlers: Partial<JobHandlers>;
  logger: Logger;
  concurrency?: number;
}

/**
 * The BullMQ worker for every job contract. It refuses to start (throws) when a job has no handler.
 * A payload that breaks its contract fails at once (UnrecoverableError: no retry would fix it); any
 * other failure is retried with the queue's exponential backoff.
 */
export function startWorker(options: WorkerOptions): Worker {
  const missing = missingHandlers(options.handlers);
  if (missing.length > 0) throw new Error(`No handler for job(s): ${missing.join(', ')}`);
  const handlers = options.handlers as JobHandlers;

  const worker = new Worker(
    QUEUE_NAME,
    async (job) => {
      const definition = definitionOf(job.name);
      if (!definition) throw new UnrecoverableError(`Unknown job ${job.name}`);
      const parsed = definition.payload.safeParse(job.data);
      if (!parsed.success)
        throw new UnrecoverableError(`Invalid payload for ${job.name}: ${parsed.error.message}`);
      const handler = handlers[definition.name] as JobHandler;
      return handler(parsed.data as never, job);
    },
    { connection: options.connection, prefix: options.prefix, concurrency: options.concurrency ?? 5 },
  );
  worker.on('completed', (job) => options.logger.info({ jobId: job.id, job: job.name }, 'job done'));
  worker.on('failed', (job, err) =>
    options.logger.warn({ jobId: job?.id, job: job?.name, attempt: job?.attemptsMade, err }, 'job failed'),
  );
  worker.on('error', (err) => options.logger.error({ err }, 'worker error'));
  return worker;
}
