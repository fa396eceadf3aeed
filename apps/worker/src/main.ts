import { config as loadConfig, ConfigError, createLogger } from '@helix/server';
import { createRedis } from '@helix/server/redis';
import { createMailTransport } from '@helix/server/mail/transport';
import { buildHandlers } from './handlers/index.ts';
import { startWorker } from './registry.ts';
import { createViewsRuntime } from './views-runtime.ts';
import { startBulkInviteWorker } from './bulk-invite/bulk-invite.worker.ts';
import { createBillingRuntime } from './billing-runtime.ts';
import { requeueUnsentSupportRequests } from './support-runtime.ts';

const SHUTDOWN_TIMEOUT_MS = 30_000;

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'worker');
  // Workers block on Redis: BullMQ needs maxRetriesPerRequest null on their connection.
  const connection = createRedis(config.REDIS_URL, { maxRetriesPerRequest: null });
  connection.on('error', (err) => logger.warn({ err }, 'redis error'));
  const transport = createMailTransport(config.SMTP_URL);
  const views = createViewsRuntime(config, logger, connection);
  const billing = createBillingRuntime(config, logger, connection);
  const worker = startWorker({
    connection,
    prefix: config.REDIS_PREFIX,
    handlers: buildHandlers({
      transport,
      mailFrom: config.MAIL_FROM,
      models: views.deps,
      invites: { db: views.deps.db, transport, mailFrom: config.MAIL_FROM, publicUrl: config.PUBLIC_URL },
      billing: billing.deps,
      support: {
        db: views.deps.db,
        transport,
        mailFrom: config.MAIL_FROM,
        supportEmail: config.SUPPORT_EMAIL,
        publicUrl: config.PUBLIC_URL,
        storage: views.deps.storage,
      },
    }),
    logger,
  });
  // Bulk invites: their own queue, worker and pooled SMTP connections.
  const bulkTransport = createMailTransport(config.SMTP_URL, { pool: true });
  const bulkInvites = startBulkInviteWorker({
    connection,
    prefix: config.REDIS_PREFIX,
    deps: {
      db: views.deps.db,
      transport: bulkTransport,
      mailFrom: config.MAIL_FROM,
      publicUrl: config.PUBLIC_URL,
    },
    logger,
  });
  await bulkInvites.recover();
  await views.start();
  await billing.start();
  await requeueUnsentSupportRequests(views.deps.db, connection, config.REDIS_PREFIX, logger).catch(
    (err: unknown) => logger.warn({ err }, 'support requests not queued again'),
  );
  logger.info('worker started');

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS);
    force.unref();
    await worker.close(); // waits for running jobs
    await bulkInvites.close();
    bulkTransport.close();
    await views.stop(); // the last view counts go to PostgreSQL
    await billing.stop();
    transport.close();
    await connection.quit().catch(() => connection.disconnect());
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
