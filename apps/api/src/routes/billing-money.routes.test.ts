import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import {
  CardCheckoutView,
  ChangePreviewView,
  InvoiceListView,
  PlanChangeView,
  SubscriptionSummaryView,
  SubscriptionView,
} from '@helix/shared/schemas/billing';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { planAmountCents } from '@helix/shared/plan-price';
import { reconcileBilling } from '@helix/server/billing/reconcile-billing.command';
import { createUser } from '@helix/server/testing/factories';
import { sendActionRequiredMail, sendInvoiceReceipt } from '@helix/server/billing/billing-receipt.command';
import { createMailTransport } from '@helix/server/mail/transport';
import { startMailSink } from '../../test/mail-sink.ts';
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
  luhnNumber,
  paidTenant,
  summaryOf,
  trialTenant,
  storedSubscription,
  useBillingBed,
  userInfo,
  waitFor,
} from '../../test/billing.ts';

/**
 * The money rules of issue 15, on stripe-local: who may spend, nothing ends before its replacement
 * is paid, one paid invoice per period, 3-D Secure before a change applies, seats with proration,
 * the invoice list, trials once per card, failure mails only for plans in force.
 */

const bed = useBillingBed();
const summary = summaryOf;
const paidCustomer = (planId: number, quantity?: number, card?: string) =>
  paidTenant(bed, planId, quantity, card);
const trialCustomer = (planId: number, card?: string) => trialTenant(bed, planId, card);

/** A trial on the card that saves fine and then fails every charge (0341), run past its end. */
async function trialEndedOnFailingCard() {
  await forgetTrialCards(bed);
  const c = await customer(bed, { clock: true });
  const trial = SubscriptionView.parse(
    (
      await c.post('/subscription/createtrials', {
        planId: INDIVIDUAL_MONTHLY,
        paymentId: 'pm_card_chargeCustomerFail',
      })
    ).body,
  );
  await advanceClock(bed, c.clockId!, new Date(trial.trial_end! * 1000 + 2 * 3600_000));
  return { c, trial };
}

describe('who may spend', () => {
  it('a non-owner Admin-role member is refused every money call, and may still look', async () => {
    const { c } = await trialCustomer(INDIVIDUAL_MONTHLY);
    const admin = await createUser(bed.h.db, { tenant: c.tenant, roles: ['Admin'], isOwner: false });
    const token = await login(bed, admin.email);
    const money: Array<[string, object]> = [
      ['/checkout/create', { planId: EDUCATOR_MONTHLY, successUrl: '/success' }],
      ['/subscription/change', { id: EDUCATOR_MONTHLY, returnUrl: '/success' }],
      ['/subscription/change-plan', { planId: EDUCATOR_MONTHLY }],
      ['/subscription/seats', { quantity: 12 }],
      ['/subscription/detail', { returnUrl: '/success' }],
      ['/subscription/cancel_plan', { returnUrl: '/success/unsubscribe' }],
      ['/subscription/cancel_subscription', { subscriptionId: 'sub_123' }],
      ['/subscription/create_views', { quantity: 1, successUrl: '/s', cancelUrl: '/c' }],
      ['/subscription/setup_intents', {}],
      ['/subscription/setup_intents/cancel', { intent: 'seti_123' }],
      ['/subscription/setup_intents/update', { setup_intent: 'seti_123', payment_method_id: 'pm_card_visa' }],
      [
        '/subscription/setup_intents/confirm',
        { setup_intent: 'seti_123', payment_method_id: 'pm_card_visa' },
      ],
      ['/subscription/createtrials', { planId: EDUCATOR_MONTHLY, paymentId: 'pm_card_visa' }],
      ['/subscription/payment-intent', { planId: EDUCATOR_MONTHLY }],
      [
        '/subscription/payment-intent/update',
        { payment_intent: 'pi_123', payment_method_id: 'pm_card_visa' },
      ],
      ['/subscription/latest-invoice/payment-invoice', { invoiceId: 'in_123' }],
    ];
    for (const [path, body] of money) {
      const res = await c.post(path, body, token);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(403);
      expect(res.body.code, path).toBe(ERROR_CODES.billingOwnerOnly);
    }
    const base = await request(bed.app)
      .post('/api/subscription/setup_intents')
      .set('Authorization', `Bearer ${token}`)
      .send({});
    expect(base.body.code).toBe(ERROR_CODES.billingOwnerOnly);
    // Looking is allowed: the summary says the member cannot manage.
    const seen = await c.get('/subscription/summary', token);
    expect(seen.status).toBe(200);
    expect(SubscriptionSummaryView.parse(seen.body).canManage).toBe(false);
    expect((await summary(c)).canManage).toBe(true);
    // Nothing changed: still the trial on the first plan.
    const stored = await storedSubscription(bed, c.tenant.id);
    expect([stored.status, stored.planId]).toEqual(['trialing', INDIVIDUAL_MONTHLY]);
    // And the refused calls are not in the audit log.
    expect(await bed.h.db.auditEvent.count({ where: { actorId: admin.id } })).toBe(0);
  });
});

describe('nothing ends before its replacement is paid', () => {
  it('an abandoned payment intent leaves the live plan and its permissions; paying it replaces the plan', async () => {
    const { c, subscriptionId: first } = await paidCustomer(INDIVIDUAL_MONTHLY);
    const before = await userInfo(c);
    const checkout = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: ENTERPRISE_MONTHLY, quantity: 50 })).body,
    );
    // The customer walks away: the old plan is live in Stripe and in Helix, with its permissions.
    expect((await bed.stripe.subscriptions.retrieve(first)).status).toBe('active');
    const stored = await storedSubscription(bed, c.tenant.id);
    expect([stored.status, stored.planId, stored.stripeSubscriptionId]).toEqual([
      'active',
      INDIVIDUAL_MONTHLY,
      first,
    ]);
    expect((await userInfo(c)).permissions.sort()).toEqual(before.permissions.sort());
    expect((await userInfo(c)).permissions).not.toContain('Customersupport');

    // Paid later: the new plan replaces the old one, which ends with nothing left to collect.
    await bed.stripe.paymentIntents.confirm(checkout.paymentIntent.id, { payment_method: 'pm_card_visa' });
    await waitFor(async () => {
      const s = await storedSubscription(bed, c.tenant.id);
      return s.planId === ENTERPRISE_MONTHLY && s.stripeSubscriptionId === checkout.subscriptionId;
    }, 'replaced after payment');
    expect((await bed.stripe.subscriptions.retrieve(first)).status).toBe('canceled');
  });

  it('an abandoned Checkout leaves a trial untouched (a live tenant gets 409 and keeps its plan)', async () => {
    const { c, sub } = await trialCustomer(INDIVIDUAL_MONTHLY);
    const res = await c.post('/checkout/create', { planId: ENTERPRISE_MONTHLY, successUrl: '/success' });
    expect(res.status).toBe(409);
    expect((await bed.stripe.subscriptions.retrieve(sub.id)).status).toBe('trialing');
    expect((await storedSubscription(bed, c.tenant.id)).planId).toBe(INDIVIDUAL_MONTHLY);
  });
});

describe('3-D Secure on a plan change', () => {
  it('trial -> Enterprise with a 3-D Secure card applies only after the challenge', async () => {
    await forgetTrialCards(bed);
    const { c } = await trialCustomer(INDIVIDUAL_MONTHLY, 'pm_card_authenticationRequired');
    const preview = ChangePreviewView.parse(
      (await c.post('/subscription/preview', { planId: ENTERPRISE_MONTHLY, quantity: 55 })).body,
    );
    expect(preview.trialEnds).toBe(true);
    expect(preview.direction).toBe('upgrade');
    const price = planAmountCents(
      (await bed.h.db.plan.findUniqueOrThrow({ where: { id: ENTERPRISE_MONTHLY } })) as never,
      55,
    );
    expect(preview.amountDueNow).toBe(price);

    const res = await c.post('/subscription/change-plan', { planId: ENTERPRISE_MONTHLY, quantity: 55 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const change = PlanChangeView.parse(res.body);
    expect(change.outcome).toBe('requires_action');
    expect(change.paymentAction?.paymentIntent?.status).toBe('requires_action');
    expect(change.paymentAction?.paymentIntent?.client_secret).toBeTruthy();
    expect(change.paymentAction?.amountDue).toBe(price);
    expect(change.paymentAction?.hostedInvoiceUrl).toMatch(/^http/);

    // Not paid yet: the old plan and its permissions stay; a banner state points at the payment.
    await new Promise((r) => setTimeout(r, 500));
    let stored = await storedSubscription(bed, c.tenant.id);
    expect(stored.planId).toBe(INDIVIDUAL_MONTHLY);
    expect(stored.activePayment).toBe(true);
    const info = await userInfo(c);
    expect(info.permissions).not.toContain('Customersupport');
    expect(info.subscription?.paymentActionUrl).toBe(change.paymentAction?.hostedInvoiceUrl);
    expect((await summary(c)).paymentAction?.invoiceId).toBe(change.paymentAction?.invoiceId);
    // The webhook queues the "complete your payment" mail (delayed), and no "payment failed" mail.
    const jobs = await waitFor(async () => {
      const all = await bed.h.deps.queue.queueOf('email').getJobs(['delayed', 'waiting']);
      return all.some((j) => j.id === `billing-action-${change.paymentAction?.invoiceId}`) ? all : null;
    }, 'the action mail job');
    expect(jobs.some((j) => j.name === 'billing-email' && j.data.tenantId === c.tenant.id)).toBe(false);

    await answerThreeDSecure(bed, change.paymentAction!.paymentIntent!, true);
    stored = await waitFor(async () => {
      const s = await storedSubscription(bed, c.tenant.id);
      return s.planId === ENTERPRISE_MONTHLY ? s : null;
    }, 'the upgrade after the challenge');
    expect(stored.userLimit).toBe(55);
    expect(stored.paymentActionUrl).toBeNull();
    expect((await userInfo(c)).permissions).toContain('Customersupport');
  });
});

describe('seats and prices', () => {
  it('a seat change is previewed with proration, charged now, and shown in the summary and history', async () => {
    const { c } = await paidCustomer(EDUCATOR_MONTHLY, 11);
    const plan = await bed.h.db.plan.findUniqueOrThrow({ where: { id: EDUCATOR_MONTHLY } });
    let s = await summary(c);
    expect([s.planId, s.seats, s.pricePerPeriod, s.seatsAdjustable]).toEqual([
      EDUCATOR_MONTHLY,
      11,
      planAmountCents(plan as never, 11),
      true,
    ]);
    expect(s.nextCharge?.amount).toBe(planAmountCents(plan as never, 11));
    expect(s.nextCharge?.date).toBeGreaterThan(Date.now() / 1000);

    const preview = ChangePreviewView.parse((await c.post('/subscription/preview', { quantity: 14 })).body);
    const perSeat = planAmountCents(plan as never, 12) - planAmountCents(plan as never, 11);
    expect(preview.direction).toBe('upgrade');
    expect(preview.trialEnds).toBe(false);
    // Three seats for (almost) the whole month.
    expect(preview.amountDueNow).toBeGreaterThan(3 * perSeat * 0.95);
    expect(preview.amountDueNow).toBeLessThanOrEqual(3 * perSeat);
    expect(preview.lines.some((l) => l.proration && l.amount < 0)).toBe(true);

    // Below the plan's users or its userLimit: refused with the field's message.
    const few = await c.post('/subscription/seats', { quantity: plan.userLimit - 1 });
    expect(few.status).toBe(422);
    expect(few.body.errors.quantity).toBe(MSG.userCountMin(plan.userLimit));

    const res = await c.post('/subscription/seats', { quantity: 14 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(PlanChangeView.parse(res.body).outcome).toBe('applied');
    // The audit log has the accepted seat change, not the refused one (docs/audit-log.md).
    const seatEvents = await bed.h.db.auditEvent.findMany({
      where: { tenantId: c.tenant.id, action: 'subscription.seats' },
    });
    expect(seatEvents.map((e) => e.changes)).toEqual([{ request: { quantity: 14 } }]);
    await waitFor(async () => (await storedSubscription(bed, c.tenant.id)).userLimit === 14, '14 seats');
    s = await summary(c);
    expect([s.seats, s.pricePerPeriod]).toEqual([14, planAmountCents(plan as never, 14)]);

    const history = InvoiceListView.parse((await c.get('/subscription/invoices')).body);
    expect(history.invoices.length).toBe(2);
    const [proration, first] = history.invoices;
    expect(first!.status).toBe('paid');
    expect(first!.amountPaid).toBe(planAmountCents(plan as never, 11));
    expect(proration!.status).toBe('paid');
    expect(Math.abs(proration!.amountPaid - preview.amountDueNow)).toBeLessThanOrEqual(2);
    expect(first!.hostedInvoiceUrl).toMatch(/^http/);
    expect(first!.periodEnd).toBeGreaterThan(first!.periodStart!);
    // Each paid invoice queues one receipt (the webhook of the second may still be on its way).
    await waitFor(async () => {
      const jobs = await bed.h.deps.queue.queueOf('email').getJobs(['waiting', 'delayed', 'completed']);
      return history.invoices.every(
        (i) => jobs.filter((j) => j.id === `billing-receipt-${i.id}`).length === 1,
      );
    }, 'one receipt job per paid invoice');
  });

  it('a fixed plan has fixed seats', async () => {
    const { c } = await paidCustomer(INDIVIDUAL_MONTHLY);
    const res = await c.post('/subscription/seats', { quantity: 3 });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe(ERROR_CODES.seatsFixed);
  });
});

describe('billing e-mails', () => {
  it('a paid invoice gets one receipt (HTML, amount, link); a 3-D Secure payment left behind gets one link', async () => {
    const sink = await startMailSink();
    const transport = createMailTransport(sink.url);
    const deps = { billing: bed.h.deps, transport, from: 'billing@helix.test' };
    try {
      const { c } = await paidCustomer(EDUCATOR_MONTHLY, 11);
      const customerId = (await bed.h.db.tenant.findUniqueOrThrow({ where: { id: c.tenant.id } }))
        .stripeCustomerId!;
      const [invoice] = (await bed.stripe.invoices.list({ customer: customerId, status: 'paid' })).data;
      const payload = { tenantId: c.tenant.id, invoiceId: invoice!.id! };
      expect(await sendInvoiceReceipt(deps, payload)).toEqual({ sent: true });
      expect(await sendInvoiceReceipt(deps, payload)).toMatchObject({ sent: false });
      await sink.waitFor(1);
      const receipt = sink.mails[0]!;
      expect(receipt.to).toEqual([c.owner.email]);
      expect(receipt.raw).toContain('text/html');
      expect(receipt.raw).toContain('$108.00');
      expect(receipt.link).toBe(invoice!.hosted_invoice_url);

      // A change on a 3-D Secure card, left unfinished: one mail with the invoice's page; none once paid.
      const sub = (await storedSubscription(bed, c.tenant.id)).stripeSubscriptionId!;
      const pm = await bed.stripe.paymentMethods.attach('pm_card_authenticationRequired', {
        customer: customerId,
      });
      await bed.stripe.subscriptions.update(sub, { default_payment_method: pm.id });
      const change = PlanChangeView.parse((await c.post('/subscription/seats', { quantity: 20 })).body);
      expect(change.outcome).toBe('requires_action');
      const action = { tenantId: c.tenant.id, invoiceId: change.paymentAction!.invoiceId };
      expect(await sendActionRequiredMail(deps, action)).toEqual({ sent: true });
      await sink.waitFor(2);
      expect(sink.mails[1]!.link).toBe(change.paymentAction!.hostedInvoiceUrl);
      expect((await storedSubscription(bed, c.tenant.id)).userLimit).toBe(11);
      await answerThreeDSecure(bed, change.paymentAction!.paymentIntent!, true);
      expect(await sendActionRequiredMail(deps, action)).toMatchObject({ sent: false });
      await waitFor(
        async () => (await storedSubscription(bed, c.tenant.id)).userLimit === 20,
        'seats after 3DS',
      );
    } finally {
      transport.close();
      await sink.stop();
    }
  });
});

describe('one paid invoice per period', () => {
  it('a trial ended by a failing card, cancelled, subscribed again, card updated: one paid invoice', async () => {
    const { c, trial } = await trialEndedOnFailingCard();
    await waitFor(async () => (await storedSubscription(bed, c.tenant.id)).status === 'past_due', 'past_due');
    const cancel = await c.post('/subscription/cancel_subscription', { subscriptionId: trial.id });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    const customerId = (await bed.h.db.tenant.findUniqueOrThrow({ where: { id: c.tenant.id } }))
      .stripeCustomerId!;
    const open = await bed.stripe.invoices.list({ customer: customerId, status: 'open' });
    expect(open.data).toHaveLength(0);

    const checkout = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: INDIVIDUAL_MONTHLY })).body,
    );
    await bed.stripe.paymentIntents.confirm(checkout.paymentIntent.id, { payment_method: 'pm_card_visa' });
    await waitFor(async () => (await storedSubscription(bed, c.tenant.id)).status === 'active', 'active');
    // A new card in the customer's billing details: nothing old is there to collect.
    const pm = await bed.stripe.paymentMethods.attach('pm_card_visa', { customer: customerId });
    await bed.stripe.customers.update(customerId, { invoice_settings: { default_payment_method: pm.id } });
    const paid = await bed.stripe.invoices.list({ customer: customerId, status: 'paid' });
    expect(paid.data.filter((i) => i.amount_paid > 0)).toHaveLength(1);
  });

  it('cancel_subscription closes the open invoices of the ended subscription (stored state first)', async () => {
    const { c, subscriptionId } = await paidCustomer(INDIVIDUAL_MONTHLY);
    const res = await c.post('/subscription/cancel_subscription', { subscriptionId });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('canceled');
    const stored = await storedSubscription(bed, c.tenant.id);
    expect(stored.status).toBe('deactivated');
  });
});

describe('failure mails only for plans in force', () => {
  it('a decline in the card form (plan change, first payment) is answered, never mailed', async () => {
    const { c } = await paidCustomer(INDIVIDUAL_MONTHLY);
    // In the form: a change charged to a declining card answers the decline.
    const sub = (await storedSubscription(bed, c.tenant.id)).stripeSubscriptionId!;
    const pm = await bed.stripe.paymentMethods.attach('pm_card_chargeCustomerFail', {
      customer: (await bed.stripe.subscriptions.retrieve(sub)).customer as string,
    });
    await bed.stripe.subscriptions.update(sub, { default_payment_method: pm.id });
    const before = (await bed.stripe.subscriptions.retrieve(sub)).items.data[0]!;
    const preview = ChangePreviewView.parse(
      (await c.post('/subscription/preview', { planId: ENTERPRISE_MONTHLY, quantity: 50 })).body,
    );
    const res = await c.post('/subscription/change-plan', { planId: ENTERPRISE_MONTHLY, quantity: 50 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const change = PlanChangeView.parse(res.body);
    expect(change.outcome).toBe('requires_payment_method');
    expect(change.message).toMatch(/declined/i);
    // Stripe's figures: the preview is what the change's invoice asks (within a second's proration).
    expect(Math.abs(change.paymentAction!.amountDue - preview.amountDueNow)).toBeLessThanOrEqual(2);
    // Stripe holds the change as a pending update: the subscription keeps its price and seats.
    const held = await bed.stripe.subscriptions.retrieve(sub);
    expect([held.items.data[0]!.price.id, held.items.data[0]!.quantity]).toEqual([
      before.price.id,
      before.quantity,
    ]);
    expect(held.pending_update?.subscription_items?.[0]?.quantity).toBe(50);
    expect((await summary(c)).pendingChange).toEqual({ planId: ENTERPRISE_MONTHLY, seats: 50 });
    await new Promise((r) => setTimeout(r, 800));
    const stored = await storedSubscription(bed, c.tenant.id);
    expect([stored.planId, stored.activePayment]).toEqual([INDIVIDUAL_MONTHLY, true]);
    // A first payment declined in the card form (9995) is not mailed either.
    const fresh = await customer(bed);
    await bed.h.db.tenantSubscription.update({
      where: { tenantId: fresh.tenant.id },
      data: { isTrialPassed: true },
    });
    const checkout = CardCheckoutView.parse(
      (await fresh.post('/subscription/payment-intent', { planId: INDIVIDUAL_MONTHLY })).body,
    );
    await expect(
      bed.stripe.paymentIntents.confirm(checkout.paymentIntent.id, {
        payment_method: 'pm_card_chargeDeclinedInsufficientFunds',
      }),
    ).rejects.toThrow(/insufficient funds|declined/i);
    await new Promise((r) => setTimeout(r, 800));
    const jobs = await bed.h.deps.queue.queueOf('email').getJobs(['waiting', 'delayed', 'completed']);
    const tenants = [c.tenant.id, fresh.tenant.id];
    expect(jobs.filter((j) => j.name === 'billing-email' && tenants.includes(j.data.tenantId))).toHaveLength(
      0,
    );
  });

  it('a trial converted on a failing card mails "payment failed" once', async () => {
    const { c } = await trialEndedOnFailingCard();
    const mails = await waitFor(async () => {
      const jobs = await bed.h.deps.queue.queueOf('email').getJobs(['waiting', 'delayed', 'completed']);
      const mine = jobs.filter((j) => j.name === 'billing-email' && j.data.tenantId === c.tenant.id);
      return mine.length ? mine : null;
    }, 'payment failed mail');
    expect(mails.map((j) => j.data.kind)).toEqual(['payment-failed']);
  });
});

describe('trials once per card', () => {
  it('a card that had a trial on another tenant gets the paid flow with the wording', async () => {
    const number = luhnNumber();
    const card = await freshCard(bed, number);
    const { c: first } = await trialCustomer(INDIVIDUAL_MONTHLY, card);
    const fingerprint = (await bed.stripe.paymentMethods.retrieve(card)).card!.fingerprint!;
    expect((await bed.h.db.trialCard.findUniqueOrThrow({ where: { fingerprint } })).tenantId).toBe(
      first.tenant.id,
    );
    // The same card on another tenant (a new PaymentMethod, the same fingerprint).
    const other = await customer(bed);
    const res = await other.post('/subscription/createtrials', {
      planId: EDUCATOR_MONTHLY,
      paymentId: await freshCard(bed, number),
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe(ERROR_CODES.trialAlreadyUsed);
    expect(res.body.message).toBe(MSG.trialAlreadyUsed);
    expect((await storedSubscription(bed, other.tenant.id)).isTrialPassed).toBe(true);
    const paidFlow = await other.post('/subscription/payment-intent', { planId: EDUCATOR_MONTHLY });
    expect(paidFlow.status, JSON.stringify(paidFlow.body)).toBe(200);
  });
});

describe('webhooks and a diverged Stripe', () => {
  const post = (payload: string) =>
    request(bed.app)
      .post('/api/stripe/webhook')
      .set('content-type', 'application/json')
      .set(
        'stripe-signature',
        bed.stripe.webhooks.generateTestHeaderString({ payload, secret: bed.webhookSecret }),
      )
      .send(payload);

  it('a signed but malformed event answers 400; an unknown object answers 200 and is recorded', async () => {
    for (const body of ['{}', '{"id":123}', '{"id":"evt_1","type":"invoice.paid"}', 'null', '[]']) {
      const res = await post(body);
      expect(res.status, body).toBe(400);
    }
    const { c } = await trialCustomer(INDIVIDUAL_MONTHLY);
    const customerId = (await bed.h.db.tenant.findUniqueOrThrow({ where: { id: c.tenant.id } }))
      .stripeCustomerId;
    const unknown = JSON.stringify({
      id: `evt_unknown_${Date.now()}`,
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { id: 'cs_test_unknown', object: 'checkout.session', customer: customerId } },
    });
    const res = await post(unknown);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await bed.h.db.processedStripeEvent.count({ where: { id: JSON.parse(unknown).id } })).toBe(1);
  });

  it('a customer Stripe no longer knows is replaced: checkout works, reconcile recovers a tenant in status none', async () => {
    const c = await customer(bed);
    await bed.h.db.tenant.update({ where: { id: c.tenant.id }, data: { stripeCustomerId: 'cus_lost_1' } });
    const res = await c.post('/checkout/create', { planId: INDIVIDUAL_MONTHLY, successUrl: '/success' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const fresh = (await bed.h.db.tenant.findUniqueOrThrow({ where: { id: c.tenant.id } })).stripeCustomerId!;
    expect(fresh).not.toBe('cus_lost_1');
    expect((await bed.stripe.customers.retrieve(fresh)).id).toBe(fresh);

    const other = await customer(bed);
    await bed.h.db.tenant.update({
      where: { id: other.tenant.id },
      data: { stripeCustomerId: 'cus_lost_2' },
    });
    await bed.h.db.tenantSubscription.upsert({
      where: { tenantId: other.tenant.id },
      update: { status: 'none' },
      create: { tenantId: other.tenant.id, status: 'none' },
    });
    const result = await reconcileBilling(bed.h.deps, { tenantId: other.tenant.id });
    expect([result.failed, result.recovered]).toEqual([0, 1]);
    const healed = (await bed.h.db.tenant.findUniqueOrThrow({ where: { id: other.tenant.id } }))
      .stripeCustomerId!;
    expect(healed).not.toBe('cus_lost_2');
  });
});
