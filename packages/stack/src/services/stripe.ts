import path from 'node:path';
import { portIsFree } from './net.ts';
import type { Service } from './types.ts';

export interface StripeService extends Service {
  /** The variables the API and worker need (none when real Stripe or nothing is configured). */
  env: Record<string, string>;
}

export interface StripeServiceOptions {
  /** The environment the processes will get: a STRIPE_SECRET_KEY there means real Stripe. */
  env: Record<string, string | undefined>;
  /** Where the API answers webhooks: `<apiUrl>/api/stripe/webhook`. */
  apiUrl: string;
  /** stripe-local's port: default STRIPE_LOCAL_PORT, else 12111; 0 = a free one. */
  port?: number;
  dataDir: string;
  /** Keep stripe-local's state in <dataDir>/stripe-local.json across restarts (default true). */
  persist?: boolean;
}

export const STRIPE_WEBHOOK_PATH = '/api/stripe/webhook';

/**
 * Stripe for the local stack: real Stripe when STRIPE_SECRET_KEY is set; otherwise (never in production)
 * packages/stripe-local in this process, with the API's webhook endpoint registered and its keys, URL and
 * Stripe.js stand-in handed to the API and the worker.
 */
export async function resolveStripe(options: StripeServiceOptions): Promise<StripeService> {
  const { env } = options;
  if (env.STRIPE_SECRET_KEY) {
    const mode = env.STRIPE_SECRET_KEY.startsWith('sk_live_') ? 'live mode' : 'test mode';
    return {
      url: env.STRIPE_API_URL ?? 'https://api.stripe.com',
      kind: 'external',
      description: `Stripe: ${env.STRIPE_API_URL ?? 'api.stripe.com'} (STRIPE_SECRET_KEY, ${mode})`,
      env: {},
      stop: async () => {},
    };
  }
  if (env.NODE_ENV === 'production') {
    return {
      url: '',
      kind: 'external',
      description: 'Stripe: not configured (STRIPE_SECRET_KEY unset): card payment is off',
      env: {},
      stop: async () => {},
    };
  }
  const port = options.port ?? (env.STRIPE_LOCAL_PORT ? Number(env.STRIPE_LOCAL_PORT) : 12111);
  if (port && !(await portIsFree(port))) {
    throw new Error(
      `port ${port} (stripe-local) is already in use (is another Helix running?). ` +
        'Stop it, choose another port with STRIPE_LOCAL_PORT=<port>, or set STRIPE_SECRET_KEY to use Stripe test mode.',
    );
  }
  const { startStripeLocal } = await import('@helix/stripe-local');
  const local = await startStripeLocal({
    port,
    webhooks: [{ url: `${options.apiUrl}${STRIPE_WEBHOOK_PATH}` }],
    snapshotFile: options.persist === false ? undefined : path.join(options.dataDir, 'stripe-local.json'),
  });
  return {
    url: local.url,
    kind: 'embedded',
    description: `Stripe: stripe-local ${local.url} (test cards, 3-D Secure, test clocks; no STRIPE_SECRET_KEY)`,
    env: {
      STRIPE_SECRET_KEY: local.secretKey,
      STRIPE_PUBLISHABLE_KEY: local.publishableKey,
      STRIPE_WEBHOOK_SECRET: local.webhookSecret!,
      STRIPE_API_URL: local.url,
      STRIPE_JS_URL: local.stripeJsUrl,
    },
    stop: () => local.stop(),
  };
}
