import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { deriveSubscriptionState } from '@helix/shared/subscription-state';
import { CardCheckoutView } from '@helix/shared/schemas/billing';
import { reconcileBilling } from '@helix/server/billing/reconcile-billing.command';
import {
  forgetTrialCards,
  INDIVIDUAL_MONTHLY,
  storedSubscription,
  summaryOf,
  trialTenant,
  useBillingBed,
  userInfo,
  waitFor,
} from '../../test/billing.ts';

/**
 * A trial that ends on a card that fails its first charge (issue 28, item 1): Stripe makes the
 * subscription past_due with an open invoice; Helix shows "payment failed" everywhere (session,
 * summary, banner) and the reconcile job converges a stored state that missed it.
 */

const bed = useBillingBed();

describe('a trial ended on a failing card', () => {
  it('ended now (trial_end=now): the session, the summary and the banner say payment failed; reconcile heals a stale row', async () => {
    await forgetTrialCards(bed);
    const { c, sub } = await trialTenant(bed, INDIVIDUAL_MONTHLY, 'pm_card_chargeCustomerFail');
    const ended = await bed.stripe.subscriptions.update(sub.id, { trial_end: 'now' });
    expect(ended.status).toBe('past_due');

    await waitFor(async () => (await storedSubscription(bed, c.tenant.id)).status === 'past_due', 'past_due');
    const stored = await storedSubscription(bed, c.tenant.id);
    expect(stored.activePayment).toBe(false);
    const session = (await userInfo(c)).subscription!;
    expect([session.status, session.activePayment]).toEqual(['past_due', false]);
    // The banner the web shows is derived from the session subscription.
    const state = deriveSubscriptionState({ ...session, hasPlan: session.planId !== null });
    expect([state.kind, state.banner, state.inForce]).toEqual(['payment_failed', 'payment_failed', true]);
    const summary = await summaryOf(c);
    expect([summary.state, summary.stripeStatus, summary.pendingChange]).toEqual([
      'payment_failed',
      'past_due',
      null,
    ]);

    // A row that missed the webhooks (still trialing) is healed by the reconcile job (once every
    // event is delivered, so no webhook heals it first).
    await waitFor(async () => {
      const events = await bed.stripe.events.list({ limit: 100 });
      return events.data.every((e) => e.pending_webhooks === 0);
    }, 'webhooks delivered');
    await new Promise((r) => setTimeout(r, 300));
    await bed.h.db.tenantSubscription.update({
      where: { tenantId: c.tenant.id },
      data: { status: 'trialing', activePayment: true, stripeReadAt: null },
    });
    const result = await reconcileBilling(bed.h.deps, { tenantId: c.tenant.id });
    expect([result.changed, result.failed]).toEqual([1, 0]);
    expect((await storedSubscription(bed, c.tenant.id)).status).toBe('past_due');
  });
});

describe('subscribing again with a new card', () => {
  it('makes the new card the customer default (the billing portal shows it), not the failed 0341', async () => {
    await forgetTrialCards(bed);
    const { c, sub } = await trialTenant(bed, INDIVIDUAL_MONTHLY, 'pm_card_chargeCustomerFail');
    await bed.stripe.subscriptions.update(sub.id, { trial_end: 'now' });
    await waitFor(async () => (await storedSubscription(bed, c.tenant.id)).status === 'past_due', 'past_due');
    expect((await c.post('/subscription/cancel_subscription', { subscriptionId: sub.id })).status).toBe(200);
    const customerId = (await bed.h.db.tenant.findUniqueOrThrow({ where: { id: c.tenant.id } }))
      .stripeCustomerId!;
    const cardOf = async () => {
      const cus = (await bed.stripe.customers.retrieve(customerId, {
        expand: ['invoice_settings.default_payment_method'],
      })) as Stripe.Customer;
      const pm = cus.invoice_settings.default_payment_method;
      return pm && typeof pm === 'object' ? pm.card?.last4 : null;
    };
    expect(await cardOf()).toBe('0341');

    const checkout = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: INDIVIDUAL_MONTHLY })).body,
    );
    await bed.stripe.paymentIntents.confirm(checkout.paymentIntent.id, { payment_method: 'pm_card_visa' });
    await waitFor(async () => (await storedSubscription(bed, c.tenant.id)).status === 'active', 'active');
    await waitFor(async () => (await cardOf()) === '4242', 'the new card as the default');
  });
});
