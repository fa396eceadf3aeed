import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, authenticate, DAY, startHarness, type Harness } from './testing/harness.ts';
import { createMonthlyPrice } from './testing/subscriptions.ts';

let h: Harness;
let monthly: Stripe.Price;
let seats: Stripe.Price;
beforeAll(async () => {
  h = await startHarness();
  monthly = await createMonthlyPrice(h.stripe);
  seats = await h.stripe.prices.create({
    currency: 'usd',
    recurring: { interval: 'month' },
    product_data: { name: 'Educator Monthly' },
    billing_scheme: 'tiered',
    tiers_mode: 'graduated',
    tiers: [
      { up_to: 10, flat_amount: 9900 },
      { up_to: 'inf', unit_amount: 900 },
    ],
  });
});
afterAll(async () => {
  await h?.stop();
});

async function clockedCustomer(paymentMethod?: string) {
  const start = Math.floor(Date.UTC(2027, 0, 10) / 1000);
  const clock = await h.stripe.testHelpers.testClocks.create({ frozen_time: start, name: 'test' });
  const customer = await h.stripe.customers.create({ email: 'c@example.com', test_clock: clock.id });
  let pm: string | undefined;
  if (paymentMethod) {
    pm = (await h.stripe.paymentMethods.attach(paymentMethod, { customer: customer.id })).id;
    await h.stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm } });
  }
  return { clock: clock.id, customer: customer.id, start, pm };
}

const typesFor = (sub: string) =>
  h.receiver.events
    .filter((e) => {
      const o = e.data.object as {
        id?: string;
        subscription?: string;
        parent?: { subscription_details?: { subscription?: string } };
      };
      return o.id === sub || o.parent?.subscription_details?.subscription === sub;
    })
    .map((e) => e.type);

describe('subscriptions and test clocks', () => {
  it('starts a trial, warns 3 days before its end, and becomes active with a good card', async () => {
    const { clock, customer, start, pm } = await clockedCustomer('pm_card_visa');
    const sub = await h.stripe.subscriptions.create({
      customer: customer,
      items: [{ price: seats.id, quantity: 12 }],
      trial_period_days: 30,
      default_payment_method: pm,
      expand: ['latest_invoice'],
    });
    expect(sub.status).toBe('trialing');
    expect(sub.trial_end).toBe(start + 30 * DAY);
    expect(sub.items.data[0]!.current_period_end).toBe(start + 30 * DAY);
    expect((sub.latest_invoice as Stripe.Invoice).amount_due).toBe(0);

    await advance(h.stripe, clock, start + 28 * DAY);
    await h.receiver.waitFor(() => typesFor(sub.id).includes('customer.subscription.trial_will_end'));
    await advance(h.stripe, clock, start + 30 * DAY + 60);
    const active = await h.stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice.payments'] });
    expect(active.status).toBe('active');
    const invoice = active.latest_invoice as Stripe.Invoice;
    expect(invoice.status).toBe('paid');
    expect(invoice.amount_paid).toBe(9900 + 2 * 900);
    expect(invoice.parent?.subscription_details?.subscription).toBe(sub.id);
    expect(invoice.payments?.data[0]?.payment.payment_intent).toMatch(/^pi_/);
    await h.receiver.waitFor(() => typesFor(sub.id).includes('invoice.paid'));
  });

  it('pays the first invoice through its confirmation secret (default_incomplete), with 3-D Secure', async () => {
    const customer = await h.stripe.customers.create({ email: 'd@example.com' });
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: monthly.id }],
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      expand: ['latest_invoice.confirmation_secret'],
    });
    expect(sub.status).toBe('incomplete');
    const secret = (sub.latest_invoice as Stripe.Invoice).confirmation_secret!;
    expect(secret.type).toBe('payment_intent');
    const piId = secret.client_secret.split('_secret_')[0]!;
    const pm = await h.publishable.paymentMethods.create({
      type: 'card',
      card: { number: '4000002500003155', exp_month: 1, exp_year: 2041 },
    });
    const pi = await h.publishable.paymentIntents.confirm(piId, {
      payment_method: pm.id,
      client_secret: secret.client_secret,
    } as Stripe.PaymentIntentConfirmParams);
    expect(pi.status).toBe('requires_action');
    await authenticate(h.local, pi, true);
    const active = await h.stripe.subscriptions.retrieve(sub.id);
    expect(active.status).toBe('active');
    expect(active.default_payment_method).toBe(pm.id);
  });

  it('renews with a 0341 card into past_due, retries, then cancels when Stripe gives up', async () => {
    const { clock, customer, start } = await clockedCustomer('pm_card_visa');
    const sub = await h.stripe.subscriptions.create({ customer, items: [{ price: monthly.id }] });
    expect(sub.status).toBe('active');
    // The card now on file fails every charge.
    const failing = await h.stripe.paymentMethods.attach('pm_card_chargeCustomerFail', { customer });
    await h.stripe.customers.update(customer, { invoice_settings: { default_payment_method: failing.id } });
    const periodEnd = sub.items.data[0]!.current_period_end;
    expect(periodEnd).toBe(Math.floor(Date.UTC(2027, 1, 10) / 1000));

    await advance(h.stripe, clock, periodEnd + 60);
    const pastDue = await h.stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] });
    expect(pastDue.status).toBe('past_due');
    const invoice = pastDue.latest_invoice as Stripe.Invoice;
    expect(invoice.status).toBe('open');
    expect(invoice.attempt_count).toBe(1);
    expect(invoice.next_payment_attempt).toBe(invoice.status_transitions.finalized_at! + 3 * DAY);

    await advance(h.stripe, clock, periodEnd + 8 * DAY);
    const ended = await h.stripe.subscriptions.retrieve(sub.id);
    expect(ended.status).toBe('canceled');
    expect(ended.cancellation_details?.reason).toBe('payment_failed');
    expect((await h.stripe.invoices.retrieve(invoice.id)).attempt_count).toBe(4);
    await h.receiver.waitFor(() => typesFor(sub.id).includes('customer.subscription.deleted'));
    expect(typesFor(sub.id).filter((t) => t === 'invoice.payment_failed')).toHaveLength(4);
    void start;
  });

  it('goes past_due and back to active when the open invoice is paid with a new card', async () => {
    const { clock, customer } = await clockedCustomer('pm_card_visa');
    const sub = await h.stripe.subscriptions.create({ customer, items: [{ price: monthly.id }] });
    const failing = await h.stripe.paymentMethods.attach('pm_card_chargeDeclinedInsufficientFunds', {
      customer,
    });
    await h.stripe.customers.update(customer, { invoice_settings: { default_payment_method: failing.id } });
    await advance(h.stripe, clock, sub.items.data[0]!.current_period_end + 60);
    const pastDue = await h.stripe.subscriptions.retrieve(sub.id);
    expect(pastDue.status).toBe('past_due');
    const paid = await h.stripe.invoices.pay(pastDue.latest_invoice as string, {
      payment_method: 'pm_card_visa',
    });
    expect(paid.status).toBe('paid');
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('active');
  });

  it('cancels at the period end with customer.subscription.deleted', async () => {
    const { clock, customer } = await clockedCustomer('pm_card_visa');
    const sub = await h.stripe.subscriptions.create({ customer, items: [{ price: monthly.id }] });
    const updated = await h.stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    expect(updated.cancel_at_period_end).toBe(true);
    expect(updated.cancel_at).toBe(sub.items.data[0]!.current_period_end);
    expect(updated.status).toBe('active');
    await advance(h.stripe, clock, sub.items.data[0]!.current_period_end + 1);
    const ended = await h.stripe.subscriptions.retrieve(sub.id);
    expect(ended.status).toBe('canceled');
    expect(ended.ended_at).toBe(sub.items.data[0]!.current_period_end);
    await h.receiver.waitFor(() => typesFor(sub.id).includes('customer.subscription.deleted'));
    const listed = await h.stripe.subscriptions.list({ customer, status: 'all' });
    expect(listed.data.map((s) => s.id)).toContain(sub.id);
    expect((await h.stripe.subscriptions.list({ customer })).data).toHaveLength(0);
  });

  it('ends a trial at once with trial_end=now, and a failing card leaves it past_due', async () => {
    const { customer } = await clockedCustomer('pm_card_chargeDeclinedInsufficientFunds');
    const sub = await h.stripe.subscriptions.create({
      customer,
      items: [{ price: monthly.id }],
      trial_period_days: 30,
    });
    const ended = await h.stripe.subscriptions.update(sub.id, { trial_end: 'now' });
    expect(ended.status).toBe('past_due');
    const fine = await clockedCustomer('pm_card_visa');
    const other = await h.stripe.subscriptions.create({
      customer: fine.customer,
      items: [{ price: monthly.id }],
      trial_period_days: 30,
    });
    expect((await h.stripe.subscriptions.update(other.id, { trial_end: 'now' })).status).toBe('active');
  });

  it('expires an incomplete subscription after 23 hours', async () => {
    const { clock, customer, start } = await clockedCustomer();
    const sub = await h.stripe.subscriptions.create({
      customer,
      items: [{ price: monthly.id }],
      payment_behavior: 'default_incomplete',
    });
    expect(sub.status).toBe('incomplete');
    await advance(h.stripe, clock, start + 24 * 3600);
    const expired = await h.stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] });
    expect(expired.status).toBe('incomplete_expired');
    expect((expired.latest_invoice as Stripe.Invoice).status).toBe('void');
  });

  it('refuses error_if_incomplete with a declined card and creates nothing', async () => {
    const { customer } = await clockedCustomer('pm_card_chargeDeclinedInsufficientFunds');
    await expect(
      h.stripe.subscriptions.create({
        customer,
        items: [{ price: monthly.id }],
        payment_behavior: 'error_if_incomplete',
      }),
    ).rejects.toMatchObject({ code: 'card_declined', decline_code: 'insufficient_funds' });
    expect((await h.stripe.subscriptions.list({ customer, status: 'all' })).data).toHaveLength(0);
  });

  it('changes quantity with an immediate prorated invoice and applies a 100% coupon', async () => {
    const { customer } = await clockedCustomer('pm_card_visa');
    const sub = await h.stripe.subscriptions.create({ customer, items: [{ price: seats.id, quantity: 10 }] });
    const item = sub.items.data[0]!;
    const updated = await h.stripe.subscriptions.update(sub.id, {
      items: [{ id: item.id, quantity: 12 }],
      proration_behavior: 'always_invoice',
      expand: ['latest_invoice'],
    });
    expect(updated.items.data[0]!.quantity).toBe(12);
    const inv = updated.latest_invoice as Stripe.Invoice;
    expect(inv.billing_reason).toBe('subscription_update');
    expect(inv.amount_due).toBe(1800);
    expect(inv.status).toBe('paid');

    await h.stripe.coupons.create({ id: 'granted_test', percent_off: 100, duration: 'forever' });
    const free = await h.stripe.subscriptions.create({
      customer,
      items: [{ price: monthly.id }],
      discounts: [{ coupon: 'granted_test' }],
      expand: ['latest_invoice'],
    });
    expect(free.status).toBe('active');
    expect((free.latest_invoice as Stripe.Invoice).total).toBe(0);
  });

  it('cancels a trial without a card at its end (trial_settings cancel), and grants a 100% coupon without a card', async () => {
    const { clock, customer, start } = await clockedCustomer();
    const sub = await h.stripe.subscriptions.create({
      customer,
      items: [{ price: monthly.id }],
      trial_period_days: 7,
      trial_settings: { end_behavior: { missing_payment_method: 'cancel' } },
    });
    expect(sub.trial_settings?.end_behavior.missing_payment_method).toBe('cancel');
    await advance(h.stripe, clock, start + 8 * DAY);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('canceled');

    await h.stripe.coupons.create({ id: 'granted_nocard', percent_off: 100, duration: 'forever' });
    const granted = await h.stripe.subscriptions.create({
      customer,
      items: [{ price: monthly.id }],
      discounts: [{ coupon: 'granted_nocard' }],
    });
    expect(granted.status).toBe('active');
  });

  it('cancels at a chosen time (cancel_at) and can clear it', async () => {
    const { clock, customer, start } = await clockedCustomer('pm_card_visa');
    const sub = await h.stripe.subscriptions.create({ customer, items: [{ price: monthly.id }] });
    const at = start + 10 * DAY;
    const set = await h.stripe.subscriptions.update(sub.id, { cancel_at: at });
    expect(set.cancel_at).toBe(at);
    expect(set.cancel_at_period_end).toBe(false);
    await expect(
      h.stripe.subscriptions.update(sub.id, { cancel_at: at, cancel_at_period_end: true }),
    ).rejects.toMatchObject({ statusCode: 400 });
    const cleared = await h.stripe.subscriptions.update(sub.id, {
      cancel_at: null,
    } as unknown as Stripe.SubscriptionUpdateParams);
    expect(cleared.cancel_at).toBeNull();
    await h.stripe.subscriptions.update(sub.id, { cancel_at: at });
    await advance(h.stripe, clock, at + 1);
    const ended = await h.stripe.subscriptions.retrieve(sub.id);
    expect(ended.status).toBe('canceled');
    expect(ended.ended_at).toBe(at);
  });
});
