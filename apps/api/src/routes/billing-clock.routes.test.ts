import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveSubscriptionState } from '@helix/shared/subscription-state';
import { advanceTenantClock } from '@helix/server/billing/advance-test-clock.command';
import { ensureCustomer } from '@helix/server/billing/tenant-billing';
import { recordView } from '@helix/server/views/record-view';
import { viewDepsOf, viewsSummary } from '@helix/server/views/views-summary';
import type { Actor } from '@helix/server/sessions/session.service';
import {
  customer,
  forgetTrialCards,
  freshCard,
  INDIVIDUAL_MONTHLY,
  storedSubscription,
  summaryOf,
  useBillingBed,
  userInfo,
  waitFor,
  type Customer,
} from '../../test/billing.ts';

/**
 * Helix's own subscriptions on test clocks (issue 28, item 11; STRIPE_TEST_CLOCKS): a tenant's
 * customer is made on a clock of its own, so a trial can end by itself and a period can renew, and
 * what Helix shows then is tested: the first charge, the payment-failed state and banner, and the
 * view count starting again at the renewal.
 */

const bed = useBillingBed();
const clockDeps = () => ({ ...bed.h.deps, config: { ...bed.h.deps.config, STRIPE_TEST_CLOCKS: true } });

/** A tenant whose Stripe customer Helix made on a test clock, on a trial of Individual Monthly. */
async function trialOnClock(card?: string) {
  const c = await customer(bed);
  const customerId = await ensureCustomer(clockDeps(), c.tenant.id);
  const stripeCustomer = await bed.stripe.customers.retrieve(customerId);
  expect('test_clock' in stripeCustomer && stripeCustomer.test_clock).toBeTruthy();
  const res = await c.post('/subscription/createtrials', {
    planId: INDIVIDUAL_MONTHLY,
    paymentId: card ?? (await freshCard(bed)),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await waitFor(async () => (await storedSubscription(bed, c.tenant.id)).status === 'trialing', 'trialing');
  return { c, trialEnd: (res.body as { trial_end: number }).trial_end };
}

/** The tenant's context as the viewer's counting reads it, and its views summary at `now`. */
async function usageAt(c: Customer, now: Date) {
  const actor = { tenant: { id: c.tenant.id } } as Actor;
  return viewsSummary(bed.h.deps, actor, now);
}
let model: { id: number } | undefined;
async function viewAt(c: Customer, now: Date) {
  const tenant = await bed.h.db.tenant.findUniqueOrThrow({
    where: { id: c.tenant.id },
    include: { subscription: { include: { plan: true } }, branding: true },
  });
  model ??= await bed.h.db.model.create({
    data: { name: `Clock model ${randomUUID()}`, urlModelName: `clock-${randomUUID()}`, isPublic: true },
  });
  return recordView(
    viewDepsOf(bed.h.deps),
    tenant,
    { modelId: model.id, viewerKey: `u:${c.owner.id}`, source: 'portal', viewer: randomUUID() },
    now,
  );
}

describe('a trial that ends by itself', () => {
  it('on a good card: charged, subscribed; a month later it renews and the view count starts again', async () => {
    const { c, trialEnd } = await trialOnClock();
    const ended = await advanceTenantClock(
      bed.h.deps,
      c.tenant.domainPrefix,
      new Date((trialEnd + 3600) * 1000),
    );
    expect(ended.sync.status).toBe('active');
    const summary = await summaryOf(c);
    expect([summary.state, summary.stripeStatus]).toEqual(['subscribed', 'active']);
    const invoices = (await c.get('/subscription/invoices?limit=10')).body.invoices as {
      status: string;
      amountPaid: number;
    }[];
    expect(invoices.filter((i) => i.status === 'paid' && i.amountPaid === 1200)).toHaveLength(1);

    // Views in the first paid period, counted at the clock's time.
    const first = await storedSubscription(bed, c.tenant.id);
    const inFirst = new Date(ended.frozenTime * 1000 + 60_000);
    for (let i = 0; i < 5; i += 1) expect((await viewAt(c, inFirst)).counted).toBe(true);
    expect((await usageAt(c, inFirst)).viewCount).toBe(5);

    // The renewal: a new period, its own count from zero; the first period keeps its five.
    const renewed = await advanceTenantClock(bed.h.deps, c.tenant.domainPrefix, { days: 32 });
    expect(renewed.sync.status).toBe('active');
    const second = await storedSubscription(bed, c.tenant.id);
    expect(second.currentPeriodStart!.getTime()).toBe(first.currentPeriodEnd!.getTime());
    const inSecond = new Date(renewed.frozenTime * 1000);
    const usage = await usageAt(c, inSecond);
    expect(usage.viewCount).toBe(0);
    expect(usage.periodStart).toBe(second.currentPeriodStart!.toISOString());
    expect((await viewAt(c, inSecond)).count).toBe(1);
    expect((await usageAt(c, inFirst)).viewCount).toBe(5);
    const paid = (await c.get('/subscription/invoices?limit=10')).body.invoices as { status: string }[];
    expect(paid.filter((i) => i.status === 'paid')).toHaveLength(3); // trial $0, first charge, renewal
  });

  it('on a failing card (0341): payment failed in the session, the summary and the banner', async () => {
    await forgetTrialCards(bed);
    const { c, trialEnd } = await trialOnClock('pm_card_chargeCustomerFail');
    const ended = await advanceTenantClock(
      bed.h.deps,
      c.tenant.domainPrefix,
      new Date((trialEnd + 3600) * 1000),
    );
    expect(ended.sync.status).toBe('past_due');
    const session = (await userInfo(c)).subscription!;
    const state = deriveSubscriptionState({ ...session, hasPlan: session.planId !== null });
    expect([state.kind, state.banner]).toEqual(['payment_failed', 'payment_failed']);
    expect((await summaryOf(c)).state).toBe('payment_failed');
  });
});
