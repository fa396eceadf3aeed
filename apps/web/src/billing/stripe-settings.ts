import { BillingConfigView } from '@helix/shared/schemas/billing';
import { baseApi } from '../api/client';
import type { StripeSettings } from './stripe-loader';

/** Card payment is not configured on this server (no publishable key). */
export class PaymentsNotConfigured extends Error {
  override readonly name = 'PaymentsNotConfigured';
}

/**
 * The publishable key and the Stripe.js address (GET /api/billing/config, base, no session): real
 * Stripe in production, stripe-local's stand-in in development and tests. A malformed answer fails.
 */
export async function fetchStripeSettings(): Promise<StripeSettings> {
  const answer = BillingConfigView.parse(await baseApi.get<unknown>('/billing/config', { toast: false }));
  if (!answer.publishableKey) throw new PaymentsNotConfigured();
  return { publishableKey: answer.publishableKey, stripeJsUrl: answer.stripeJsUrl };
}
