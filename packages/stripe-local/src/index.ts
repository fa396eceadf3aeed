import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomToken } from './core/ids.ts';
import { Journal } from './core/journal.ts';
import { wants } from './core/events.ts';
import { advanceClock, startRealTimeTicker } from './billing/scheduler.ts';
import { addWebhookEndpoint } from './routes/events.routes.ts';
import { createServer } from './server.ts';
import type { AfterRetries, Context } from './core/context.ts';
import type { WebhookDelivery } from './core/webhooks.ts';

export { signatureHeader } from './core/webhooks.ts';
export { API_VERSION } from './core/context.ts';

export const DEFAULT_PORT = 12111;
export const DEFAULT_SECRET_KEY = 'sk_test_stripe_local_0000000000000000';
export const DEFAULT_PUBLISHABLE_KEY = 'pk_test_stripe_local_0000000000000000';

export interface StripeLocalOptions {
  /** Default 12111; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Endpoints registered at start; a missing secret is generated (and answered as webhookSecret). */
  webhooks?: { url: string; secret?: string; enabledEvents?: string[] }[];
  /** Where browsers reach this server (hosted pages, Stripe.js); default http://<host>:<port>. */
  publicUrl?: string;
  secretKey?: string;
  publishableKey?: string;
  /**
   * Delays between webhook retries (ms); default 0.5, 1, 2, 4, 8, 15, 30 and 60 s: nine attempts over two
   * minutes, so an API that restarts under npm start still gets its events.
   */
  webhookRetryDelaysMs?: number[];
  /** Webhook delivery timeout (ms); default 10 000. */
  webhookTimeoutMs?: number;
  /**
   * Keep the state on disk: this JSON snapshot plus `<snapshotFile>.journal`, where every change is
   * appended and fsynced before its answer is sent (a SIGKILL loses nothing answered); both are compacted
   * into the snapshot at start, at stop and when the journal passes `journalCompactBytes`. Without it the
   * state lives in memory only and a restart starts empty.
   */
  snapshotFile?: string;
  /**
   * Stripe's failed-payment settings: what a subscription (cancel / unpaid / past_due) and its invoice
   * (uncollectible / past_due = left open) become when every retry failed. Default cancel + uncollectible.
   */
  afterRetries?: AfterRetries;
  /** Journal size that triggers a compaction (default 8 MB). */
  journalCompactBytes?: number;
}

export interface StripeLocal {
  url: string;
  port: number;
  host: string;
  secretKey: string;
  publishableKey: string;
  /** The secret of the first configured webhook endpoint. */
  webhookSecret?: string;
  /** The Stripe.js stand-in (load it instead of https://js.stripe.com/v3). */
  stripeJsUrl: string;
  /** For the `stripe` SDK: `new Stripe(secretKey, { host, port, protocol })`. */
  sdkOptions: { host: string; port: number; protocol: 'http' };
  ctx: Context;
  webhooks: WebhookDelivery;
  /** With `snapshotFile`: the journal (its `stats`: commits, fsyncs, lines, compactions, replay). */
  journal?: Journal;
  stop(): Promise<void>;
}

/** Starts the server (state in memory: a restart starts empty). */
export async function startStripeLocal(options: StripeLocalOptions = {}): Promise<StripeLocal> {
  const host = options.host ?? '127.0.0.1';
  const secretKey = options.secretKey ?? DEFAULT_SECRET_KEY;
  const publishableKey = options.publishableKey ?? DEFAULT_PUBLISHABLE_KEY;
  const contextOptions = {
    publicUrl: options.publicUrl ?? '',
    secretKey,
    publishableKey,
    webhookRetryDelaysMs: options.webhookRetryDelaysMs ?? [
      500, 1000, 2000, 4000, 8000, 15_000, 30_000, 60_000,
    ],
    webhookTimeoutMs: options.webhookTimeoutMs ?? 10_000,
    afterRetries: options.afterRetries,
  };
  const journal = options.snapshotFile
    ? new Journal(options.snapshotFile, { compactBytes: options.journalCompactBytes })
    : undefined;
  const { app, ctx, webhooks } = createServer(contextOptions, journal);
  if (journal) {
    journal.attach(ctx.store);
    await journal.open();
  }
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(options.port ?? DEFAULT_PORT, host, (error?: Error) =>
      error ? reject(error) : resolve(s),
    );
    s.once('error', reject);
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host}:${port}`;
  ctx.options.publicUrl = options.publicUrl ?? url;
  const secrets = (options.webhooks ?? []).map((w) => {
    const endpoint = addWebhookEndpoint(
      ctx,
      w.url,
      w.secret ?? `whsec_${randomToken(32)}`,
      w.enabledEvents,
      true,
    );
    return endpoint.secret;
  });
  const stopTicker = startRealTimeTicker(ctx);
  if (journal) resumeAfterRestart(ctx, webhooks);
  return {
    url,
    port,
    host,
    secretKey,
    publishableKey,
    webhookSecret: secrets[0],
    stripeJsUrl: `${ctx.options.publicUrl.replace(/\/$/, '')}/v3/`,
    sdkOptions: { host, port, protocol: 'http' },
    ctx,
    webhooks,
    journal,
    async stop() {
      stopTicker();
      webhooks.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await journal?.close();
    },
  };
}

/**
 * After a restart: a test clock that was advancing finishes its advance, and events whose delivery had
 * not succeeded are sent again to today's endpoints (Stripe delivers at least once; receivers dedupe).
 */
function resumeAfterRestart(ctx: Context, webhooks: WebhookDelivery): void {
  for (const clock of ctx.store.testClocks.values())
    if (clock.status === 'advancing') advanceClock(ctx, clock.id, clock.targetTime ?? clock.frozenTime);
  const endpoints = [...ctx.store.webhookEndpoints.values()].filter((w) => w.status === 'enabled');
  for (const event of [...ctx.store.events.values()].filter((e) => e.pendingWebhooks > 0)) {
    event.pendingWebhooks = endpoints.filter((w) => wants(w.enabledEvents, event.type)).length;
    webhooks.deliver(event.id);
  }
}
