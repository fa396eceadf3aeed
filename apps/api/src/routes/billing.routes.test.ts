import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import {
  BillingConfigView,
  CardCheckoutView,
  CheckoutUrl,
  PaymentIntentView,
  SetupIntentView,
  SubscriptionView,
} from '@helix/shared/schemas/billing';
import { planAmountCents } from '@helix/shared/plan-price';
import { ensureStripeCatalog } from '@helix/server/billing/stripe-catalog.command';
import { grantPlatformSubscription } from '@helix/server/billing/grant-subscription.command';
import { reconcileBilling } from '@helix/server/billing/reconcile-billing.command';
import { ensureDemoSubscription } from '@helix/server/billing/demo-subscription.command';
import { createTenant, createUser } from '@helix/server/testing/factories';
import {
  advanceClock,
  answerThreeDSecure,
  customer,
  EDUCATOR_MONTHLY,
  ENTERPRISE_MONTHLY,
  forgetTrialCards,
  freshCard,
  INDIVIDUAL_MONTHLY,
  login,
  payCheckout,
  storedSubscription,
  useBillingBed,
  userInfo,
  waitFor,
} from '../../test/billing.ts';

const DAY = 86_400_000;

const bed = useBillingBed();

/** A tenant whose trial has passed (card checkout applies). */
async function trialPassed(c: { tenant: { id: number } }) {
  await bed.h.db.tenantSubscription.update({
    where: { tenantId: c.tenant.id },
    data: { isTrialPassed: true },
  });
}

describe('catalogue and configuration', () => {
  it('creates the six plans as graduated-tier prices once, by lookup key', async () => {
    await ensureStripeCatalog(bed.h.deps); // a second run creates nothing new
    const plans = await bed.h.db.plan.findMany({ orderBy: { id: 'asc' } });
    expect(plans).toHaveLength(6);
    for (const plan of plans) {
      expect(plan.stripePriceId).toBeTruthy();
      const price = await bed.stripe.prices.retrieve(plan.stripePriceId!, { expand: ['tiers'] });
      expect(price.currency).toBe('usd');
      expect(price.recurring?.interval).toBe(plan.planType === 'YEARLY' ? 'year' : 'month');
      expect(price.tiers_mode).toBe('graduated');
      expect(price.tiers?.[0]).toMatchObject({ up_to: plan.userLimit, flat_amount: planAmountCents(plan) });
    }
    const educator = plans.find((p) => p.id === EDUCATOR_MONTHLY)!;
    const found = await bed.stripe.prices.list({ lookup_keys: [`helix_plan_8_month_10x9900+900`] });
    expect(found.data.map((p) => p.id)).toEqual([educator.stripePriceId]);
  });

  it('answers the Stripe.js configuration without a session', async () => {
    const res = await request(bed.app).get('/api/billing/config');
    expect(res.status).toBe(200);
    const config = BillingConfigView.parse(res.body);
    expect(config.publishableKey).toMatch(/^pk_test_/);
  });
});

describe('trial flow (trial not yet passed)', () => {
  it('setup intent, confirm, trial subscription trialing; one trial per tenant; user info reflects it', async () => {
    const c = await customer(bed);
    const si = SetupIntentView.parse((await c.post('/subscription/setup_intents')).body);
    expect(si.status).toBe('requires_payment_method');
    // A double click answers the same pending setup intent.
    expect(SetupIntentView.parse((await c.post('/subscription/setup_intents')).body).id).toBe(si.id);
    const updated = await c.post('/subscription/setup_intents/update', {
      setup_intent: si.id,
      payment_method_id: 'pm_card_visa',
    });
    expect(updated.status).toBe(200);
    const confirmed = SetupIntentView.parse(
      (
        await c.post('/subscription/setup_intents/confirm', {
          setup_intent: si.id,
          payment_method_id: updated.body.payment_method,
        })
      ).body,
    );
    expect(confirmed.status).toBe('succeeded');

    const body = {
      planId: EDUCATOR_MONTHLY,
      quantity: 12,
      paymentId: confirmed.payment_method!,
      amount: 1, // never trusted
      updateCustomer: true,
      attachPaymentMethod: true,
    };
    const res = await c.post('/subscription/createtrials', body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const sub = SubscriptionView.parse(res.body);
    expect(sub).toMatchObject({ status: 'trialing', planId: EDUCATOR_MONTHLY, quantity: 12 });
    expect(sub.trial_end! * 1000).toBeGreaterThan(Date.now() + 29 * DAY);

    // The same call again (double click, retry): the same subscription, no second one.
    const again = SubscriptionView.parse((await c.post('/subscription/createtrials', body)).body);
    expect(again.id).toBe(sub.id);
    const tenant = await bed.h.db.tenant.findUniqueOrThrow({ where: { id: c.tenant.id } });
    const all = await bed.stripe.subscriptions.list({ customer: tenant.stripeCustomerId!, status: 'all' });
    expect(all.data).toHaveLength(1);

    const stored = await storedSubscription(bed, c.tenant.id);
    expect(stored).toMatchObject({
      status: 'trialing',
      isTrialPassed: true,
      userLimit: 12,
      planId: EDUCATOR_MONTHLY,
    });
    const user = await userInfo(c);
    expect(user.subscription).toMatchObject({
      status: 'trialing',
      planId: EDUCATOR_MONTHLY,
      isTrialPassed: true,
    });
    expect(user.permissions).toContain('Screen.record');

    // The trial was used: a new plan is paid at once (an incomplete subscription to confirm).
    const next = SubscriptionView.parse(
      (await c.post('/subscription/createtrials', { ...body, planId: INDIVIDUAL_MONTHLY, quantity: 1 })).body,
    );
    expect(next.status).toBe('incomplete');
    expect(next.latest_invoice?.payment_intent?.client_secret).toBeTruthy();
    expect(next.latest_invoice?.amount_due).toBe(1200);
  });

  it('a card declined at set-up answers 402 with the provider message', async () => {
    const c = await customer(bed);
    const si = SetupIntentView.parse((await c.post('/subscription/setup_intents')).body);
    const res = await c.post('/subscription/setup_intents/confirm', {
      setup_intent: si.id,
      payment_method_id: 'pm_card_chargeDeclined',
    });
    expect(res.status).toBe(402);
    expect(res.body.message).toBe('Your card was declined.');
    const cancelled = await c.post('/subscription/setup_intents/cancel', { intent: si.id });
    expect(SetupIntentView.parse(cancelled.body).status).toBe('canceled');
  });

  it('the trial ends when the plan is changed', async () => {
    const c = await customer(bed);
    const trial = SubscriptionView.parse(
      (
        await c.post('/subscription/createtrials', {
          planId: INDIVIDUAL_MONTHLY,
          paymentId: await freshCard(bed),
        })
      ).body,
    );
    expect(trial.status).toBe('trialing');
    await waitFor(async () => (await storedSubscription(bed, c.tenant.id)).status === 'trialing', 'trialing');
    const change = await c.post('/subscription/change', {
      id: EDUCATOR_MONTHLY,
      quantity: 10,
      returnUrl: '/success/subscribe',
    });
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    const confirm = await fetch(`${change.body.url}/update-confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
      redirect: 'manual',
    });
    expect(confirm.status).toBeLessThan(400);
    const stored = await waitFor(async () => {
      const s = await storedSubscription(bed, c.tenant.id);
      return s.planId === EDUCATOR_MONTHLY && s.status === 'active' ? s : null;
    }, 'trial ended on the new plan');
    expect(stored.isTrialPassed).toBe(true);
    const sub = await bed.stripe.subscriptions.retrieve(trial.id);
    expect(sub.status).toBe('active');
    expect(sub.trial_end! * 1000).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('guest trial: the session sign-up answered starts the trial; an anonymous caller cannot', async () => {
    const reg = await request(bed.app)
      .post('/api/user/register')
      .send({
        name: 'Guest Teacher',
        user_name: `guest${Date.now() % 100000}`,
        email: `guest${Date.now()}@example.test`,
        password: 'a long password',
      });
    expect(reg.status, JSON.stringify(reg.body)).toBeLessThan(300);
    const body = { planId: EDUCATOR_MONTHLY, quantity: 10, paymentId: await freshCard(bed) };
    expect((await request(bed.app).post('/api/subscription/createtrials/guest').send(body)).status).toBe(401);
    const res = await request(bed.app)
      .post('/api/subscription/createtrials/guest')
      .set('Authorization', `Bearer ${reg.body.apiToken}`)
      .send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(SubscriptionView.parse(res.body).status).toBe('trialing');
  });

  it('refuses bad input with 4xx: seats under the plan limit, unknown plan, unknown fields', async () => {
    const c = await customer(bed);
    const few = await c.post('/subscription/createtrials', {
      planId: EDUCATOR_MONTHLY,
      quantity: 3,
      paymentId: 'pm_card_visa',
    });
    expect(few.status).toBe(400);
    expect(few.body.errors.quantity).toBe(MSG.positiveIntegers);
    expect(
      (await c.post('/subscription/createtrials', { planId: 999, paymentId: 'pm_card_visa' })).status,
    ).toBe(404);
    expect((await c.post('/subscription/createtrials', { planId: 7, paymentId: 'x', evil: 1 })).status).toBe(
      400,
    );
    expect(
      (await c.post('/subscription/create_views', { quantity: 0, successUrl: '/a', cancelUrl: '/b' })).body
        .errors.quantity,
    ).toBe(MSG.positiveIntegers);
  });
});

describe('card checkout (trial passed)', () => {
  it('4242: incomplete subscription, the browser confirms its payment intent, the plan is in force', async () => {
    const c = await customer(bed);
    await trialPassed(c);
    const res = await c.post('/subscription/payment-intent', {
      planId: EDUCATOR_MONTHLY,
      quantity: 11,
      amount: 1,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const checkout = CardCheckoutView.parse(res.body);
    expect(checkout.paymentIntent.amount).toBe(9900 + 900); // from the plan, not the browser
    // A double click answers the same pending payment.
    const again = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: EDUCATOR_MONTHLY, quantity: 11 })).body,
    );
    expect(again.subscriptionId).toBe(checkout.subscriptionId);
    const fromInvoice = PaymentIntentView.parse(
      (await c.post('/subscription/latest-invoice/payment-invoice', { invoiceId: checkout.invoiceId })).body,
    );
    expect(fromInvoice.id).toBe(checkout.paymentIntent.id);

    const paid = await bed.stripe.paymentIntents.confirm(checkout.paymentIntent.id, {
      payment_method: 'pm_card_visa',
    });
    expect(paid.status).toBe('succeeded');
    await waitFor(async () => (await storedSubscription(bed, c.tenant.id)).status === 'active', 'active');
    expect((await userInfo(c)).paymentPlan).toBe('Educator Monthly');
  });

  it('3-D Secure passed: requires_action, the challenge is completed, the subscription becomes active', async () => {
    const c = await customer(bed);
    await trialPassed(c);
    const checkout = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: INDIVIDUAL_MONTHLY })).body,
    );
    const pm = await bed.stripe.paymentMethods.retrieve('pm_card_authenticationRequired');
    const updated = PaymentIntentView.parse(
      (
        await c.post('/subscription/payment-intent/update', {
          payment_intent: checkout.paymentIntent.id,
          payment_method_id: pm.id,
        })
      ).body,
    );
    expect(updated.payment_method).toBe(pm.id);
    const confirmed = await bed.stripe.paymentIntents.confirm(checkout.paymentIntent.id, {
      return_url: 'http://portal.test/success/subscribe',
    });
    expect(confirmed.status).toBe('requires_action');
    await answerThreeDSecure(bed, confirmed, true);
    await waitFor(
      async () => (await storedSubscription(bed, c.tenant.id)).status === 'active',
      'active after 3DS',
    );
  });

  it('3-D Secure failed: the payment needs a new card and the plan is not in force', async () => {
    const c = await customer(bed);
    await trialPassed(c);
    const checkout = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: INDIVIDUAL_MONTHLY })).body,
    );
    const confirmed = await bed.stripe.paymentIntents.confirm(checkout.paymentIntent.id, {
      payment_method: 'pm_card_authenticationRequired',
      return_url: 'http://portal.test/success/subscribe',
    });
    expect(confirmed.status).toBe('requires_action');
    await answerThreeDSecure(bed, confirmed, false);
    const after = PaymentIntentView.parse(
      (await c.post('/subscription/latest-invoice/payment-invoice', { invoiceId: checkout.invoiceId })).body,
    );
    expect(after.status).toBe('requires_payment_method');
    const stored = await storedSubscription(bed, c.tenant.id);
    expect(stored.status).toBe('incomplete');
    expect((await userInfo(c)).permissions).not.toContain('Model.embed');
  });

  it('a declined card (9995) answers 402 with the provider message', async () => {
    const c = await customer(bed);
    await trialPassed(c);
    const checkout = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: INDIVIDUAL_MONTHLY })).body,
    );
    await expect(
      bed.stripe.paymentIntents.confirm(checkout.paymentIntent.id, {
        payment_method: 'pm_card_chargeDeclinedInsufficientFunds',
      }),
    ).rejects.toMatchObject({ type: 'StripeCardError' });
    expect((await storedSubscription(bed, c.tenant.id)).status).not.toBe('active');
  });

  it('cancel_subscription ends it now (owner only) and answers its status', async () => {
    const c = await customer(bed);
    await trialPassed(c);
    const checkout = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: INDIVIDUAL_MONTHLY })).body,
    );
    const member = await createUser(bed.h.db, { tenant: c.tenant, roles: ['Admin'], isOwner: false });
    const memberToken = await login(bed, member.email);
    expect(
      (
        await c.post(
          '/subscription/cancel_subscription',
          { subscriptionId: checkout.subscriptionId },
          memberToken,
        )
      ).status,
    ).toBe(403);
    const res = await c.post('/subscription/cancel_subscription', {
      subscriptionId: checkout.subscriptionId,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe('canceled');
  });
});

describe('hosted flows', () => {
  it('Checkout for an unsubscribed tenant: own-origin URLs only; paying makes it subscribed', async () => {
    const c = await customer(bed);
    await trialPassed(c);
    const evil = await c.post('/checkout/create', {
      planId: INDIVIDUAL_MONTHLY,
      successUrl: 'https://evil.example/x',
    });
    expect(evil.status).toBe(400);
    expect(evil.body.errors).toHaveProperty('successUrl');
    const res = await c.post('/checkout/create', {
      planId: INDIVIDUAL_MONTHLY,
      successUrl: '/success/subscribe',
      amount: 1,
      displayType: 'MONTHLY',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { url } = CheckoutUrl.parse(res.body);
    // A double click answers the same Checkout page.
    expect(
      (
        await c.post('/checkout/create', {
          planId: INDIVIDUAL_MONTHLY,
          successUrl: '/success/subscribe',
          amount: 1,
          displayType: 'MONTHLY',
        })
      ).body.url,
    ).toBe(url);
    await payCheckout(bed, url);
    await waitFor(
      async () => (await storedSubscription(bed, c.tenant.id)).status === 'active',
      'active after Checkout',
    );
    // Subscribed: a second Checkout is refused (plan changes go through the portal).
    expect(
      (await c.post('/checkout/create', { planId: INDIVIDUAL_MONTHLY, successUrl: '/success' })).status,
    ).toBe(409);
  });

  it('billing detail, plan change (subscription_update_confirm) and Cancel Plan go to the billing portal', async () => {
    const c = await customer(bed);
    await trialPassed(c);
    const checkout = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: INDIVIDUAL_MONTHLY })).body,
    );
    await bed.stripe.paymentIntents.confirm(checkout.paymentIntent.id, { payment_method: 'pm_card_visa' });
    await waitFor(async () => (await storedSubscription(bed, c.tenant.id)).status === 'active', 'active');

    const detail = await c.post('/subscription/detail', { returnUrl: '/user/settings/subscription' });
    expect(detail.status, JSON.stringify(detail.body)).toBe(200);
    expect(detail.body.url).toMatch(/^http/);
    expect((await c.post('/subscription/detail', { returnUrl: 'https://evil.example' })).status).toBe(400);

    const change = await c.post('/subscription/change', {
      id: EDUCATOR_MONTHLY,
      quantity: 10,
      returnUrl: '/success/subscribe',
    });
    expect(change.status, JSON.stringify(change.body)).toBe(200);
    const session = await fetch(
      `${change.body.url}/update-confirm`.replace(/\?.*\/update-confirm$/, '/update-confirm'),
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
        redirect: 'manual',
      },
    );
    expect(session.status).toBeLessThan(400);
    await waitFor(
      async () => (await storedSubscription(bed, c.tenant.id)).planId === EDUCATOR_MONTHLY,
      'plan changed',
    );

    const cancel = await c.post('/subscription/cancel_plan', { returnUrl: '/success/unsubscribe' });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(CheckoutUrl.parse(cancel.body).url).toMatch(/^http/);
  });
});

/** POST /api/stripe/webhook with a raw body, signed or not. */
const post = (payload: string, signature?: string) => {
  const r = request(bed.app).post('/api/stripe/webhook').set('content-type', 'application/json');
  return (signature ? r.set('stripe-signature', signature) : r).send(payload);
};
const sign = (payload: string) =>
  bed.stripe.webhooks.generateTestHeaderString({ payload, secret: bed.webhookSecret });

describe('webhooks', () => {
  it('refuses a missing or bad signature with 400', async () => {
    const payload = JSON.stringify({ id: 'evt_x', type: 'invoice.paid', data: { object: {} } });
    expect((await post(payload)).status).toBe(400);
    expect((await post(payload, 't=1,v1=deadbeef')).status).toBe(400);
  });

  it('a webhook delivered 10 times is applied once; an unknown type answers 2xx', async () => {
    const c = await customer(bed);
    await trialPassed(c);
    const checkout = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: INDIVIDUAL_MONTHLY })).body,
    );
    await bed.stripe.paymentIntents.confirm(checkout.paymentIntent.id, { payment_method: 'pm_card_visa' });
    await waitFor(async () => (await storedSubscription(bed, c.tenant.id)).status === 'active', 'active');
    const events = await bed.stripe.events.list({ type: 'customer.subscription.updated', limit: 100 });
    const event = events.data.find((e) => (e.data.object as { id: string }).id === checkout.subscriptionId)!;
    expect(event).toBeTruthy();
    const payload = JSON.stringify(event);
    const outcomes: string[] = [];
    for (let i = 0; i < 10; i += 1) {
      const res = await post(payload, sign(payload));
      expect(res.status).toBe(200);
      outcomes.push(res.body.outcome);
    }
    expect(outcomes.filter((o) => o === 'applied').length).toBeLessThanOrEqual(1);
    expect(await bed.h.db.processedStripeEvent.count({ where: { id: event.id } })).toBe(1);

    const unknown = JSON.stringify({
      id: `evt_unknown_${Date.now()}`,
      object: 'event',
      type: 'balance.available',
      data: { object: { object: 'balance' } },
      created: 1,
      livemode: false,
      api_version: '2026-10-28.endive',
      pending_webhooks: 0,
      request: null,
    });
    const res = await post(unknown, sign(unknown));
    expect(res.status).toBe(200);
  });

  it("events out of order (updated before created) converge on Stripe's state", async () => {
    const c = await customer(bed);
    await trialPassed(c);
    const checkout = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: INDIVIDUAL_MONTHLY })).body,
    );
    await bed.stripe.paymentIntents.confirm(checkout.paymentIntent.id, { payment_method: 'pm_card_visa' });
    await waitFor(async () => (await storedSubscription(bed, c.tenant.id)).status === 'active', 'active');
    // Forget what was applied and the state, then deliver updated before created.
    await bed.h.db.tenantSubscription.update({
      where: { tenantId: c.tenant.id },
      data: { status: 'none', activePayment: false },
    });
    const events = (await bed.stripe.events.list({ limit: 100 })).data.filter(
      (e) => (e.data.object as { id: string }).id === checkout.subscriptionId,
    );
    const created = events.find((e) => e.type === 'customer.subscription.created')!;
    const updated = events.find((e) => e.type === 'customer.subscription.updated')!;
    await bed.h.db.processedStripeEvent.deleteMany({ where: { id: { in: [created.id, updated.id] } } });
    for (const e of [updated, created]) {
      const payload = JSON.stringify(e);
      expect((await post(payload, sign(payload))).status).toBe(200);
    }
    expect(await storedSubscription(bed, c.tenant.id)).toMatchObject({
      status: 'active',
      activePayment: true,
    });
  });
});

describe('renewals, cancellations and trials on a test clock', () => {
  it('past_due then paid again: payment failed banner state, then subscribed', async () => {
    const c = await customer(bed, { clock: true });
    await trialPassed(c);
    const checkout = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: INDIVIDUAL_MONTHLY })).body,
    );
    const pm = await bed.stripe.paymentMethods.retrieve('pm_card_chargeCustomerFail');
    await bed.stripe.paymentIntents.confirm(checkout.paymentIntent.id, { payment_method: 'pm_card_visa' });
    await waitFor(async () => (await storedSubscription(bed, c.tenant.id)).status === 'active', 'active');
    const tenant = await bed.h.db.tenant.findUniqueOrThrow({ where: { id: c.tenant.id } });
    await bed.stripe.paymentMethods.attach(pm.id, { customer: tenant.stripeCustomerId! });
    await bed.stripe.subscriptions.update(checkout.subscriptionId, { default_payment_method: pm.id });
    const stored = await storedSubscription(bed, c.tenant.id);
    await advanceClock(bed, c.clockId!, new Date(stored.currentPeriodEnd!.getTime() + 2 * 3600_000));
    await waitFor(async () => (await storedSubscription(bed, c.tenant.id)).status === 'past_due', 'past_due');
    const user = await userInfo(c);
    expect(user.subscription).toMatchObject({ status: 'past_due', activePayment: false });
    expect(user.permissions).toContain('Model.embed'); // in force while Stripe retries
    // A good card pays the open invoice.
    const good = await bed.stripe.paymentMethods.attach(
      (await bed.stripe.paymentMethods.retrieve('pm_card_visa')).id,
      {
        customer: tenant.stripeCustomerId!,
      },
    );
    const sub = await bed.stripe.subscriptions.retrieve(checkout.subscriptionId);
    await bed.stripe.invoices.pay(sub.latest_invoice as string, { payment_method: good.id });
    await waitFor(async () => {
      const s = await storedSubscription(bed, c.tenant.id);
      return s.status === 'active' && s.activePayment;
    }, 'active again');
  });

  it('cancel at period end, then the period ends: cancelled with end date, then deactivated', async () => {
    const c = await customer(bed, { clock: true });
    await trialPassed(c);
    const checkout = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: INDIVIDUAL_MONTHLY })).body,
    );
    await bed.stripe.paymentIntents.confirm(checkout.paymentIntent.id, { payment_method: 'pm_card_visa' });
    await waitFor(async () => (await storedSubscription(bed, c.tenant.id)).status === 'active', 'active');
    await bed.stripe.subscriptions.update(checkout.subscriptionId, { cancel_at_period_end: true });
    const cancelled = await waitFor(async () => {
      const s = await storedSubscription(bed, c.tenant.id);
      return s.status === 'canceled' ? s : null;
    }, 'cancelled with end date');
    expect(cancelled.cancelAt).toBeTruthy();
    const user = await userInfo(c);
    expect(user.subscription?.cancelAt).toBe(Math.floor(cancelled.cancelAt!.getTime() / 1000));
    await advanceClock(bed, c.clockId!, new Date(cancelled.cancelAt!.getTime() + 3600_000));
    await waitFor(
      async () => (await storedSubscription(bed, c.tenant.id)).status === 'deactivated',
      'deactivated',
    );
    expect((await userInfo(c)).permissions).not.toContain('Model.embed');
  });

  it('a trial ending with a good card becomes active', async () => {
    const c = await customer(bed, { clock: true });
    const sub = SubscriptionView.parse(
      (
        await c.post('/subscription/createtrials', {
          planId: INDIVIDUAL_MONTHLY,
          paymentId: await freshCard(bed),
        })
      ).body,
    );
    expect(sub.status).toBe('trialing');
    // Three days before the end Stripe says the trial will end: one trial-ending e-mail job.
    await advanceClock(bed, c.clockId!, new Date(sub.trial_end! * 1000 - 2 * DAY));
    const willEnd = await waitFor(async () => {
      const events = await bed.stripe.events.list({
        type: 'customer.subscription.trial_will_end',
        limit: 100,
      });
      const mine = events.data.find((e) => (e.data.object as { id: string }).id === sub.id);
      return mine && (await bed.h.db.processedStripeEvent.findUnique({ where: { id: mine.id } }))
        ? mine
        : null;
    }, 'trial will end');
    expect((await bed.h.deps.queue.queueOf('email').getJob(`billing-email-${willEnd.id}`))?.data).toEqual({
      kind: 'trial-ending',
      tenantId: c.tenant.id,
      eventId: willEnd.id,
    });
    await advanceClock(bed, c.clockId!, new Date(sub.trial_end! * 1000 + 2 * 3600_000));
    await waitFor(async () => {
      const s = await storedSubscription(bed, c.tenant.id);
      return s.status === 'active' && s.activePayment;
    }, 'active after the trial');
  });

  it('a trial ending with a failing card (0341): payment failed, then deactivated when Stripe gives up', async () => {
    const c = await customer(bed, { clock: true });
    await forgetTrialCards(bed); // the named test card's one trial may have gone to another test
    const sub = SubscriptionView.parse(
      (
        await c.post('/subscription/createtrials', {
          planId: INDIVIDUAL_MONTHLY,
          paymentId: 'pm_card_chargeCustomerFail',
        })
      ).body,
    );
    expect(sub.status).toBe('trialing');
    await advanceClock(bed, c.clockId!, new Date(sub.trial_end! * 1000 + 2 * 3600_000));
    await waitFor(
      async () => (await storedSubscription(bed, c.tenant.id)).status === 'past_due',
      'payment failed',
    );
    expect((await storedSubscription(bed, c.tenant.id)).activePayment).toBe(false);
    // The payment-failed e-mail goes through the worker: one billing-email job per event.
    const customerId = (await bed.h.db.tenant.findUniqueOrThrow({ where: { id: c.tenant.id } }))
      .stripeCustomerId;
    const failedEvent = await waitFor(async () => {
      const events = await bed.stripe.events.list({ type: 'invoice.payment_failed', limit: 100 });
      const mine = events.data.find((e) => (e.data.object as { customer?: string }).customer === customerId);
      return mine && (await bed.h.db.processedStripeEvent.findUnique({ where: { id: mine.id } }))
        ? mine
        : null;
    }, 'payment failed event');
    const job = await bed.h.deps.queue.queueOf('email').getJob(`billing-email-${failedEvent.id}`);
    expect(job?.name).toBe('billing-email');
    expect(job?.data).toEqual({ kind: 'payment-failed', tenantId: c.tenant.id, eventId: failedEvent.id });
    // Stripe's retries run out (about three weeks): the subscription is cancelled, the tenant deactivated.
    await advanceClock(bed, c.clockId!, new Date(sub.trial_end! * 1000 + 40 * DAY));
    await waitFor(
      async () => (await storedSubscription(bed, c.tenant.id)).status === 'deactivated',
      'deactivated',
    );
  });
});

describe('view packs', () => {
  it('Buy Views: a one-off Checkout payment; the views are added once however often the event comes', async () => {
    const c = await customer(bed);
    await trialPassed(c);
    const checkout = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: EDUCATOR_MONTHLY, quantity: 10 })).body,
    );
    await bed.stripe.paymentIntents.confirm(checkout.paymentIntent.id, { payment_method: 'pm_card_visa' });
    await waitFor(async () => (await storedSubscription(bed, c.tenant.id)).status === 'active', 'active');
    // The session says what the call below allows: the owner may buy views on this plan.
    expect((await userInfo(c)).abilities).toMatchObject({ buyViews: true, billing: true });
    const bad = await c.post('/subscription/create_views', {
      quantity: 2,
      successUrl: '/user/home',
      cancelUrl: 'https://evil.example',
    });
    expect(bad.status).toBe(400);
    const res = await c.post('/subscription/create_views', {
      quantity: 2,
      successUrl: '/user/home',
      cancelUrl: '/user/home',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const before = (await storedSubscription(bed, c.tenant.id)).additionalViews;
    await payCheckout(bed, res.body.url);
    await waitFor(
      async () => (await storedSubscription(bed, c.tenant.id)).additionalViews === before + 2000,
      '2,000 views',
    );
    // Every checkout event again: nothing more.
    const events = (await bed.stripe.events.list({ type: 'checkout.session.completed', limit: 100 })).data;
    await bed.h.db.processedStripeEvent.deleteMany({ where: { id: { in: events.map((e) => e.id) } } });
    for (const e of [...events, ...events]) {
      const payload = JSON.stringify(e);
      expect((await post(payload, sign(payload))).status).toBe(200);
    }
    expect((await storedSubscription(bed, c.tenant.id)).additionalViews).toBe(before + 2000);
    expect(await bed.h.db.additionalViewPurchase.count({ where: { tenantId: c.tenant.id } })).toBe(1);
    // Enterprise (unlimited views): not for sale.
    const e = await customer(bed);
    await grantPlatformSubscription(bed.h.deps, { tenantId: e.tenant.id, planId: ENTERPRISE_MONTHLY });
    const fresh = await login(bed, e.owner.email);
    // Not for sale: the session says so before the call refuses it.
    expect((await userInfo({ ...e, get: (path) => e.get(path, fresh) })).abilities?.buyViews).toBe(false);
    expect(
      (await e.post('/subscription/create_views', { quantity: 1, successUrl: '/a', cancelUrl: '/b' }, fresh))
        .status,
    ).toBe(409);
  });
});

describe('who may touch billing', () => {
  it("another tenant's user gets 404; a user without Subscription.listing.view gets 403", async () => {
    const a = await customer(bed);
    const b = await customer(bed);
    const other = await request(bed.app)
      .post(`/api/t/${a.tenant.domainPrefix}/subscription/detail`)
      .set('Authorization', `Bearer ${b.token}`)
      .send({ returnUrl: '/x' });
    expect(other.status).toBe(404);
    // b's session cannot name a's Stripe objects either.
    await trialPassed(a);
    const checkout = CardCheckoutView.parse(
      (await a.post('/subscription/payment-intent', { planId: INDIVIDUAL_MONTHLY })).body,
    );
    await b.post('/subscription/setup_intents');
    expect(
      (await b.post('/subscription/latest-invoice/payment-invoice', { invoiceId: checkout.invoiceId }))
        .status,
    ).toBe(404);
    expect(
      (await b.post('/subscription/cancel_subscription', { subscriptionId: checkout.subscriptionId })).status,
    ).toBe(404);

    const plain = await createUser(bed.h.db, { tenant: a.tenant, roles: ['User'], isOwner: false });
    const token = await login(bed, plain.email);
    for (const [path, body] of [
      ['/subscription/detail', { returnUrl: '/x' }],
      ['/checkout/create', { planId: 7, successUrl: '/x' }],
      ['/subscription/create_views', { quantity: 1, successUrl: '/x', cancelUrl: '/x' }],
      ['/subscription/payment-intent', { planId: 7 }],
    ] as const) {
      expect((await a.post(path, body, token)).status, path).toBe(403);
    }
  });
});

describe('platform grant and reconcile', () => {
  it('grantPlatformSubscription: a 100%-off subscription, no trial, stored; the same grant again changes nothing', async () => {
    const c = await customer(bed);
    const first = await grantPlatformSubscription(bed.h.deps, {
      tenantId: c.tenant.id,
      planId: EDUCATOR_MONTHLY,
      quantity: 12,
    });
    expect(first).toMatchObject({
      status: 'active',
      activePayment: true,
      planId: EDUCATOR_MONTHLY,
      userLimit: 12,
    });
    const again = await grantPlatformSubscription(bed.h.deps, {
      tenantId: c.tenant.id,
      planId: EDUCATOR_MONTHLY,
      quantity: 12,
    });
    expect(again.stripeSubscriptionId).toBe(first.stripeSubscriptionId);
    const sub = await bed.stripe.subscriptions.retrieve(first.stripeSubscriptionId!, {
      expand: ['latest_invoice'],
    });
    expect(sub.trial_end).toBeNull();
    expect((sub.latest_invoice as { amount_due: number }).amount_due).toBe(0);
  });

  it("makes the seeded demo tenant's plan a real Stripe subscription once", async () => {
    const plan = await bed.h.db.plan.findUniqueOrThrow({ where: { id: EDUCATOR_MONTHLY } });
    const demo = await createTenant(bed.h.db, { domainPrefix: 'demo', plan, status: 'active' });
    await bed.h.db.tenantSubscription.update({ where: { tenantId: demo.id }, data: { userLimit: 10 } });
    await createUser(bed.h.db, { tenant: demo, roles: ['Admin'], isOwner: true });
    expect(await ensureDemoSubscription(bed.h.deps)).toBe('granted');
    expect(await ensureDemoSubscription(bed.h.deps)).toBe('present');
    const stored = await storedSubscription(bed, demo.id);
    expect(stored).toMatchObject({
      status: 'active',
      activePayment: true,
      planId: EDUCATOR_MONTHLY,
      userLimit: 10,
    });
    expect((await bed.stripe.subscriptions.retrieve(stored.stripeSubscriptionId!)).status).toBe('active');

    // A fresh Stripe server beside this database (rm -rf .data, a second clone): the stored ids point at
    // nothing. The next start converges: a new customer, the plan granted again, the demo still active.
    await bed.h.db.tenant.update({
      where: { id: demo.id },
      data: { stripeCustomerId: 'cus_from_another_stripe' },
    });
    await bed.h.db.tenantSubscription.update({
      where: { tenantId: demo.id },
      data: { stripeSubscriptionId: 'sub_from_another_stripe' },
    });
    // The worker's start-up reconcile may run first: the demo is then stored as 'none' for a moment.
    await reconcileBilling(bed.h.deps, { all: true });
    expect(await ensureDemoSubscription(bed.h.deps)).toBe('granted');
    const again = await storedSubscription(bed, demo.id);
    expect(again).toMatchObject({ status: 'active', planId: EDUCATOR_MONTHLY, userLimit: 10 });
    expect(again.stripeSubscriptionId).not.toBe('sub_from_another_stripe');
    const tenant = await bed.h.db.tenant.findUniqueOrThrow({ where: { id: demo.id } });
    expect(tenant.stripeCustomerId).not.toBe('cus_from_another_stripe');
    expect(await ensureDemoSubscription(bed.h.deps)).toBe('present');
  });

  it('a missed webhook heals with the reconcile job', async () => {
    const c = await customer(bed);
    const granted = await grantPlatformSubscription(bed.h.deps, {
      tenantId: c.tenant.id,
      planId: INDIVIDUAL_MONTHLY,
    });
    // Let the grant's own webhooks land first, so only the reconcile job can heal what follows.
    const ids = (await bed.stripe.events.list({ limit: 100 })).data
      .filter((e) => JSON.stringify(e.data.object).includes(granted.stripeSubscriptionId!))
      .map((e) => e.id);
    await waitFor(
      async () => (await bed.h.db.processedStripeEvent.count({ where: { id: { in: ids } } })) === ids.length,
      'the grant webhooks',
    );
    await bed.h.db.tenantSubscription.update({
      where: { tenantId: c.tenant.id },
      data: { status: 'past_due', activePayment: false },
    });
    const result = await reconcileBilling(bed.h.deps, { tenantId: c.tenant.id });
    expect(result).toMatchObject({ checked: 1, changed: 1, failed: 0 });
    expect(await storedSubscription(bed, c.tenant.id)).toMatchObject({
      status: 'active',
      activePayment: true,
    });
  });
});
