import type { Worker } from 'bullmq';
import { createLogger } from '@helix/server';
import type { Db } from '@helix/server/db';
import { createMailTransport } from '@helix/server/mail/transport';
import { createRedis, type Redis } from '@helix/server/redis';
import { startBulkInviteWorker } from '@helix/worker/bulk-invite/bulk-invite.worker';
import { buildHandlers } from '@helix/worker/handlers/index';
import { startWorker } from '@helix/worker/registry';
import { REDIS_URL } from './harness.ts';

/**
 * The worker's invitation side in-process (what apps/worker/src/main.ts starts): the send-invite
 * handler on the main queue and the bulk-invite queue's worker, sending to `smtpUrl`.
 */
export async function startInviteWorkers(opts: {
  db: Db;
  prefix: string;
  smtpUrl: string;
  publicUrl: string;
  concurrency?: number;
}) {
  const connection: Redis = createRedis(REDIS_URL, { maxRetriesPerRequest: null });
  const logger = createLogger(process.env.INVITE_WORKER_LOG ?? 'silent', 'invite-worker-test');
  const transport = createMailTransport(opts.smtpUrl);
  const bulkTransport = createMailTransport(opts.smtpUrl, { pool: true });
  const mailFrom = 'Helix <no-reply@helix.test>';
  const main: Worker = startWorker({
    connection,
    prefix: opts.prefix,
    handlers: buildHandlers({
      transport,
      mailFrom,
      invites: { db: opts.db, transport, mailFrom, publicUrl: opts.publicUrl },
    }),
    logger,
  });
  const bulk = startBulkInviteWorker({
    connection,
    prefix: opts.prefix,
    deps: { db: opts.db, transport: bulkTransport, mailFrom, publicUrl: opts.publicUrl },
    logger,
    concurrency: opts.concurrency,
  });
  return {
    async close() {
      await main.close();
      await bulk.close();
      transport.close();
      bulkTransport.close();
      connection.disconnect();
    },
  };
}
