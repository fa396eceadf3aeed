import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { startRealTimeTicker } from './billing/scheduler.ts';
import { randomToken } from './core/ids.ts';
import { loadSnapshot, saveSnapshot } from './core/snapshot.ts';
import { addWebhookEndpoint } from './routes/events.routes.ts';
import { createServer } from './server.ts';
import type { Context } from './core/context.ts';
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
   * Keep the state in this JSON file: loaded at start, written every few seconds after a change and at
   * stop. Without it the state lives in memory only and a restart starts empty.
   */
  snapshotFile?: string;
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
  };
  const { app, ctx, webhooks } = createServer(contextOptions);
  if (options.snapshotFile) loadSnapshot(ctx.store, options.snapshotFile);
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
    const endpoint = addWebhookEndpoint(ctx, w.url, w.secret ?? `whsec_${randomToken(32)}`, w.enabledEvents);
    return endpoint.secret;
  });
  const stopTicker = startRealTimeTicker(ctx);
  const snapshotFile = options.snapshotFile;
  let saved = ctx.store.events.size;
  const save = () => {
    if (!snapshotFile) return;
    const count = ctx.store.events.size;
    if (count === saved) return;
    saveSnapshot(ctx.store, snapshotFile);
    saved = count;
  };
  const saver = snapshotFile ? setInterval(save, 3000) : undefined;
  saver?.unref();
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
    async stop() {
      stopTicker();
      if (saver) clearInterval(saver);
      if (snapshotFile) saveSnapshot(ctx.store, snapshotFile);
      webhooks.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
