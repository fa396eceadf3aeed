import { createLogger, parseConfig } from '@helix/server';
import { createWorkerRuntime } from '@helix/worker/worker-runtime';
import type { Harness } from './harness.ts';

/**
 * The worker's mail side in-process (what apps/worker/src/main.ts starts): the e-mail and bulk-invite
 * queue families on the harness's database client, sending to `smtpUrl`.
 */
export async function startInviteWorkers(
  h: Harness,
  opts: { smtpUrl: string; env?: Record<string, string> },
) {
  const config = parseConfig({
    DATABASE_URL: h.config.DATABASE_URL,
    REDIS_URL: h.config.REDIS_URL,
    REDIS_PREFIX: h.config.REDIS_PREFIX,
    PUBLIC_URL: h.config.PUBLIC_URL,
    SMTP_URL: opts.smtpUrl,
    MAIL_FROM: 'Helix <no-reply@helix.test>',
    ...opts.env,
  });
  const logger = createLogger((process.env.INVITE_WORKER_LOG ?? 'silent') as 'silent', 'invite-worker-test');
  const runtime = createWorkerRuntime(config, logger, { db: h.db });
  await runtime.start({ families: ['email', 'bulk-invite'] });
  return runtime;
}
