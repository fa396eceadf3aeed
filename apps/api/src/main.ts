import { createServer } from 'node:http';
import { config as loadConfig, ConfigError, createLogger } from '@helix/server';
import { createDb } from '@helix/server/db';
import {
  COMMAND_CLIENT_OPTIONS,
  createRedis,
  redisErrorReporter,
  redisReady,
  watchRedis,
} from '@helix/server/redis';
import { answersWithin } from '@helix/server/health/dependency-outage';
import { JobQueue } from '@helix/server/queue/job-queue';
import { createApp } from './app.ts';
import { billingConfigured } from '@helix/server/billing/stripe-client';
import { ensureStripeCatalog } from '@helix/server/billing/stripe-catalog.command';
import { ensureDemoSubscription } from '@helix/server/billing/demo-subscription.command';
import { shutdownTimeoutMs } from './shutdown.ts';
import { Draining } from './http/draining.ts';
import { lessonRealtimeOf } from './lessons/lesson-realtime.ts';

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'api');
  const db = createDb(config.DATABASE_URL);
  const redis = createRedis(config.REDIS_URL, COMMAND_CLIENT_OPTIONS);
  const queueConnection = createRedis(config.REDIS_URL, { maxRetriesPerRequest: null });
  // An outage is logged once when it starts and once when it ends (not per reconnect or per request);
  // the queues' connection errors in it are counted, not printed.
  watchRedis(redis, logger);
  const queueOutage = watchRedis(queueConnection, logger, 'redis (queue)');
  const queue = new JobQueue(queueConnection, config.REDIS_PREFIX, {
    onError: redisErrorReporter(queueOutage, logger),
  });
  // The command client has no offline queue: connect before serving, but serve anyway when Redis is
  // down (the requests that need it answer 503 or degrade, the others are served).
  if (!(await redisReady(redis, 5000))) logger.warn('starting without Redis');
  // Likewise open the first database connection before serving (the readiness check then answers fast).
  if (!(await answersWithin(db.$queryRaw`SELECT 1`, 5000))) logger.warn('starting without PostgreSQL');

  const draining = new Draining();
  const app = createApp({ config, db, redis, queue, logger }, draining);
  const server = createServer(app);
  // Live lessons' sockets (LESSON_SOCKET_PATH) on the same port.
  const lessons = lessonRealtimeOf(app).attach(server);
  // The port bound (PORT=0: one the kernel picks, read back from this line by whoever started us).
  server.listen(config.PORT, () => {
    const address = server.address();
    logger.info(
      { port: typeof address === 'object' && address ? address.port : config.PORT },
      'api listening',
    );
  });
  // Stripe products and prices of the plans, made once (by lookup key); a failure is retried on use.
  if (billingConfigured(config)) {
    ensureStripeCatalog({ config, db })
      .then((result) => logger.info(result, 'stripe catalogue ready'))
      // The seeded demo tenant's plan becomes a real (100%-off) subscription, outside production.
      .then(() =>
        config.NODE_ENV === 'production' ? 'none' : ensureDemoSubscription({ config, db, logger }),
      )
      .then((demo) => demo === 'granted' && logger.info('demo subscription created in Stripe'))
      .catch((err: unknown) => logger.error({ err }, 'stripe catalogue not ready'));
  }

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    // Force the exit when connections do not drain in time.
    const force = setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, shutdownTimeoutMs(config));
    force.unref();
    // Out of rotation first: readiness answers 503 and kept-alive connections close after their request.
    draining.start();
    if (config.SHUTDOWN_DRAIN_MS > 0) {
      logger.info({ ms: config.SHUTDOWN_DRAIN_MS }, 'draining');
      await new Promise((resolve) => setTimeout(resolve, config.SHUTDOWN_DRAIN_MS));
    }
    // The lesson sockets close without a word: each client reconnects to another process at once.
    await lessons.close().catch((err: unknown) => logger.warn({ err }, 'lesson sockets close failed'));
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    await queue.close().catch((err: unknown) => logger.warn({ err }, 'queue close failed'));
    queueConnection.disconnect();
    await redis.quit().catch(() => redis.disconnect());
    await db.$disconnect();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
