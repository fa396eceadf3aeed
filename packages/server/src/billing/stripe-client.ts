import { ERROR_CODES } from '@helix/shared/error-codes';
import Stripe from 'stripe';
import type { Config } from '../config.ts';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { stripeCallErrors } from '../metrics/metrics.ts';

/**
 * The Stripe API version every call uses: pinned here and nowhere else. Object shapes follow it
 * (2026-10-28: an invoice carries `confirmation_secret` and `payments`, no `payment_intent`; the
 * billing period lives on the subscription item).
 */
export const STRIPE_API_VERSION = '2026-10-28.endive' as const;

export type { Stripe };

/**
 * The one Stripe client factory: the secret key, and host/port/protocol when STRIPE_API_URL points at
 * a Stripe-compatible server (packages/stripe-local in development and tests).
 */
export function createStripeClient(config: Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_API_URL'>): Stripe {
  if (!config.STRIPE_SECRET_KEY) {
    throw new AppError(ERROR_CODES.billingUnavailable, {
      status: 503,
      message: 'Card payment is not available right now.',
    });
  }
  const url = config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : null;
  const stripe = new Stripe(config.STRIPE_SECRET_KEY, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: 2,
    timeout: 20_000,
    appInfo: { name: 'Helix' },
    ...(url
      ? {
          host: url.hostname,
          port: url.port || (url.protocol === 'https:' ? 443 : 80),
          protocol: url.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
  // Every answer with an error status (a decline, a conflict, Stripe down) is counted by method and status.
  stripe.on('response', (response: Stripe.ResponseEvent) => {
    const status = response.status ?? 0;
    if (status >= 400) stripeCallErrors.inc({ method: response.method ?? 'unknown', status: String(status) });
  });
  return stripe;
}

const clients = new WeakMap<Config, Stripe>();

/** The process's Stripe client for this configuration (deps.stripe when a test passes one). */
export function stripeOf(deps: Pick<ServerDeps, 'config'> & { stripe?: Stripe }): Stripe {
  if (deps.stripe) return deps.stripe;
  let client = clients.get(deps.config);
  if (!client) {
    client = createStripeClient(deps.config);
    clients.set(deps.config, client);
  }
  return client;
}

export const billingConfigured = (config: Config): boolean => Boolean(config.STRIPE_SECRET_KEY);
