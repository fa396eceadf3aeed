import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { QUEUE_FAMILY_NAMES, type QueueFamilyName } from '@helix/shared';
import type { Config } from '@helix/server';
import type { Server } from 'node:http';
import { createDb, poolOf, type Db } from '@helix/server/db';
import { registerDbPool, registerQueueDepth, registerViewBuffer } from '@helix/server/metrics/collectors';
import { startProcessMetrics } from '@helix/server/metrics/metrics';
import { serveMetrics } from '@helix/server/metrics/metrics-endpoint';
import { createRedis, redisErrorReporter, watchRedis } from '@helix/server/redis';
import { svgLanesFor } from './images/svg-lanes.ts';
import { viewCommands } from '@helix/server/views/view-store';
import { createMailTransport } from '@helix/server/mail/transport';
import { JobQueue } from '@helix/server/queue/job-queue';
import { createStorage } from '@helix/server/storage/create-storage';
import type { Storage } from '@helix/server/storage/storage';
import { requeueOpenInvites } from '@helix/server/invites/invite-jobs';
import { inviteSentMarker } from '@helix/server/invites/invite-sent-marker';
import { createInlineLogos } from './mail/inline-logos.ts';
import { buildHandlers, type HandlerDeps } from './handlers/index.ts';
import { startWorkers, type Workers } from './registry.ts';
import { createViewsRuntime } from './views-runtime.ts';
import { scheduleBillingReconcile } from './billing-runtime.ts';
import { requeueUnsentSupportRequests } from './support-runtime.ts';
import { moveLegacyJobs } from './legacy-queue.ts';

/** How often the worker queues what a Redis outage kept from being queued (open invitations). */
export const INVITE_RECOVERY_INTERVAL_MS = 60_000;

/** The worker's own adds (a batch's row jobs) may wait longer for Redis than a request's. */
const WORKER_ADD_TIMEOUT_MS = 10_000;

export interface WorkerRuntimeOptions {
  /** Tests pass their own database client (one PrismaClient per process) or storage. */
  db?: Db;
  storage?: Storage;
  /** A mail transport instead of SMTP_URL's (tests). */
  transport?: Transporter;
}

/**
 * The worker process's dependencies, made once from the configuration: one PrismaClient, one Redis
 * connection for the workers and the producer plus one for commands, one producer (JobQueue), the mail
 * transports, storage, and every job's handler. start() runs a worker per queue family (all, or the
 * ones named) with its start-up tasks; stop() lets running jobs finish, flushes the last view counts and
 * closes everything.
 */
export function createWorkerRuntime(config: Config, logger: Logger, options: WorkerRuntimeOptions = {}) {
  const db = options.db ?? createDb(config.DATABASE_URL);
  // Workers block on Redis: BullMQ needs maxRetriesPerRequest null on their connection.
  const connection = createRedis(config.REDIS_URL, { maxRetriesPerRequest: null });
  // An outage is logged once when it starts and once when it ends; connection errors in it are counted.
  const queueOutage = watchRedis(connection, logger, 'redis (queue)');
  const redis = createRedis(config.REDIS_URL);
  // The view scripts defined before any job uses them (view-commands.test.ts).
  viewCommands(redis);
  watchRedis(redis, logger);
  const queue = new JobQueue(connection, config.REDIS_PREFIX, {
    addTimeoutMs: WORKER_ADD_TIMEOUT_MS,
    onError: redisErrorReporter(queueOutage, logger),
  });
  const transport = options.transport ?? createMailTransport(config.SMTP_URL);
  // Bulk rows: pooled SMTP connections (no connect and greeting per e-mail).
  const bulkTransport = options.transport ?? createMailTransport(config.SMTP_URL, { pool: true });
  const storage = options.storage ?? createStorage(config);
  const models = { db, redis, storage, prefix: config.REDIS_PREFIX, logger };
  const invites = {
    db,
    transport,
    mailFrom: config.MAIL_FROM,
    publicUrl: config.PUBLIC_URL,
    signingSecret: config.SIGNING_SECRET,
    leaseMs: config.INVITE_SEND_LEASE_MS,
    // One cache of the schools' logos for every e-mail this worker sends.
    logos: createInlineLogos({ storage, publicUrl: config.PUBLIC_URL, logger }),
  };
  const deps: HandlerDeps = {
    svgLanes: svgLanesFor(config.IMAGE_CHECK_CONCURRENCY),
    transport,
    mailFrom: config.MAIL_FROM,
    queue,
    models,
    invites,
    // Bulk rows: the sent markers of the concurrent sends written together (invite-sent-marker.ts).
    bulkInvites: { ...invites, transport: bulkTransport, markSent: inviteSentMarker(db) },
    billing: { config, db, logger },
    support: {
      db,
      transport,
      mailFrom: config.MAIL_FROM,
      supportEmail: config.SUPPORT_EMAIL,
      publicUrl: config.PUBLIC_URL,
      storage,
    },
  };
  const handlers = buildHandlers(deps);
  const views = createViewsRuntime(config, logger, { ...models, queue });
  let workers: Workers | undefined;
  let metricsServer: Server | undefined;
  let running: readonly QueueFamilyName[] = [];
  let recovery: NodeJS.Timeout | undefined;

  const recoverInvites = () =>
    requeueOpenInvites(db, queue)
      .then((found) => {
        if (found.orphanRows > 0) logger.warn(found, 'bulk invite rows no job would run queued again');
        else if (found.batches + found.invites > 0) logger.debug(found, 'open invitations queued');
      })
      .catch((err: unknown) => logger.warn({ err }, 'open invitations not queued'));

  return {
    db,
    queue,
    deps,
    handlers,
    /** Starts the workers (refusing when a job has no handler) and each family's start-up tasks. */
    async start(opts: { families?: readonly QueueFamilyName[] } = {}) {
      running = opts.families ?? QUEUE_FAMILY_NAMES;
      startProcessMetrics('worker');
      registerQueueDepth(queue);
      registerViewBuffer(redis, config.REDIS_PREFIX);
      const pool = poolOf(db);
      if (pool) registerDbPool(pool);
      if (config.METRICS_TOKEN && config.METRICS_PORT) {
        metricsServer = await serveMetrics({
          port: config.METRICS_PORT,
          host: config.METRICS_HOST,
          token: config.METRICS_TOKEN,
        });
        logger.info({ port: config.METRICS_PORT, host: config.METRICS_HOST }, 'metrics served');
      }
      workers = startWorkers({
        connection,
        prefix: config.REDIS_PREFIX,
        handlers,
        logger,
        families: running,
        concurrency: { images: config.IMAGE_CHECK_CONCURRENCY },
        retryMaxDelayMs: config.JOB_RETRY_MAX_DELAY_MS,
        redisOutage: queueOutage,
      });
      await moveLegacyJobs(connection, config.REDIS_PREFIX, queue, logger).catch((err: unknown) =>
        logger.warn({ err }, 'jobs of the old shared queue not moved'),
      );
      if (running.includes('bulk-invite') || running.includes('email')) {
        await recoverInvites();
        recovery = setInterval(() => void recoverInvites(), INVITE_RECOVERY_INTERVAL_MS);
        recovery.unref();
      }
      if (running.includes('views')) await views.start();
      if (running.includes('billing')) await scheduleBillingReconcile(config, logger, queue);
      if (running.includes('email')) {
        await requeueUnsentSupportRequests(db, queue, logger).catch((err: unknown) =>
          logger.warn({ err }, 'support requests not queued again'),
        );
      }
    },
    /** The metrics port's server, when METRICS_TOKEN and METRICS_PORT are set. */
    get metricsServer() {
      return metricsServer;
    },
    async stop() {
      clearInterval(recovery);
      await new Promise((resolve) => (metricsServer ? metricsServer.close(resolve) : resolve(undefined)));
      await workers?.close(); // waits for running jobs
      if (running.includes('views')) await views.stop(); // the last view counts go to PostgreSQL
      await queue.close().catch((err: unknown) => logger.warn({ err }, 'queue close failed'));
      transport.close();
      bulkTransport.close();
      await connection.quit().catch(() => connection.disconnect());
      await redis.quit().catch(() => redis.disconnect());
      if (!options.db) await db.$disconnect();
    },
  };
}

export type WorkerRuntime = ReturnType<typeof createWorkerRuntime>;
