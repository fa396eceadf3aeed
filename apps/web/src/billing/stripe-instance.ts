import type { Stripe } from '@stripe/stripe-js';
import { getStripe } from './stripe-loader';
import { fetchStripeSettings } from './stripe-settings';

let settingsAndStripe: Promise<Stripe> | null = null;

/** Stripe.js with this server's settings, loaded once; a failure is not kept, so a later call tries again. */
export function stripeInstance(): Promise<Stripe> {
  settingsAndStripe ??= fetchStripeSettings()
    .then(getStripe)
    .catch((error: unknown) => {
      settingsAndStripe = null;
      throw error;
    });
  return settingsAndStripe;
}
