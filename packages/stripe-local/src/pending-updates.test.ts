import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnStripeLocal } from './testing/child-process.ts';
import { advance, authenticate, DAY, startHarness, type Harness } from './testing/harness.ts';

// payment_behavior=pending_if_incomplete: the change applies only once its invoice is paid.

let h: Harness;
let seat: Stripe.Price;
beforeAll(async () => {
  h = await startHarness();
  seat = await h.stripe.prices.create({
    currency: 'usd',
    unit_amount: 1000,
    recurring: { interval: 'month' },
    product_data: { name: 'Seat' },
  });
});
afterAll(async () => {
  await h?.stop();
});

const START = Math.floor(Date.UTC(2027, 2, 1) / 1000);

/** A customer on a clock with an active 5-seat subscription paid by 4242, then `card` as default. */
async function activeSubscription(card: string, options: { trialDays?: number } = {}) {
  const clock = await h.stripe.testHelpers.testClocks.create({ frozen_time: START });
  const customer = await h.stripe.customers.create({ email: 'p@example.com', test_clock: clock.id });
  const visa = await h.stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
  await h.stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: visa.id } });
  const sub = await h.stripe.subscriptions.create({
    customer: customer.id,
    items: [{ price: seat.id, quantity: 5 }],
    ...(options.trialDays ? { trial_period_days: options.trialDays } : {}),
  });
  expect(sub.status).toBe(options.trialDays ? 'trialing' : 'active');
  const pm = await h.stripe.paymentMethods.attach(card, { customer: customer.id });
  await h.stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } });
  return { clock: clock.id, customer: customer.id, sub };
}

const changeTo = (sub: Stripe.Subscription, quantity: number, extra: Stripe.SubscriptionUpdateParams = {}) =>
  h.stripe.subscriptions.update(sub.id, {
    items: [{ id: sub.items.data[0]!.id, quantity }],
    proration_behavior: 'always_invoice',
    payment_behavior: 'pending_if_incomplete',
    expand: ['latest_invoice.payments'],
    ...extra,
  });

const eventsOf = (subId: string, type: string) =>
  h.receiver.events.filter((e) => e.type === type && (e.data.object as { id: string }).id === subId);

const intentOf = async (invoice: Stripe.Invoice) =>
  h.stripe.paymentIntents.retrieve(invoice.payments!.data[0]!.payment.payment_intent as string);

describe('pending updates (payment_behavior=pending_if_incomplete)', () => {
  it('a declined card leaves the subscription as it was, the change in pending_update and its invoice open', async () => {
    const { clock, sub } = await activeSubscription('pm_card_chargeDeclinedInsufficientFunds');
    await advance(h.stripe, clock, START + 10 * DAY);
    const updated = await changeTo(sub, 8);
    expect(updated.status).toBe('active');
    expect(updated.items.data[0]!.quantity).toBe(5);
    expect(updated.pending_update).toMatchObject({ expires_at: START + 10 * DAY + 23 * 3600 });
    expect(updated.pending_update!.subscription_items![0]!.quantity).toBe(8);
    const invoice = updated.latest_invoice as Stripe.Invoice;
    expect(invoice.status).toBe('open');
    expect(invoice.billing_reason).toBe('subscription_update');
    // 3 seats more for the rest of the period (21 of 31 days of March).
    expect(invoice.amount_due).toBe(Math.round(8000 * (21 / 31)) - Math.round(5000 * (21 / 31)));
    expect((await intentOf(invoice)).last_payment_error?.decline_code).toBe('insufficient_funds');
    expect(invoice.next_payment_attempt).toBeNull(); // no automatic retries of a pending update

    const again = await h.stripe.subscriptions.retrieve(sub.id);
    expect(again.items.data[0]!.quantity).toBe(5);
    expect(again.status).toBe('active');
    await h.receiver.waitFor(() =>
      eventsOf(sub.id, 'customer.subscription.updated').some(
        (e) => 'pending_update' in (e.data.previous_attributes ?? {}),
      ),
    );
    const told = eventsOf(sub.id, 'customer.subscription.updated').at(-1)!;
    expect((told.data.object as Stripe.Subscription).items.data[0]!.quantity).toBe(5);
    expect(told.data.previous_attributes).toMatchObject({ pending_update: null });

    // Paid later with another card (invoices.pay): the change applies.
    const paid = await h.stripe.invoices.pay(invoice.id, { payment_method: 'pm_card_visa' });
    expect(paid.status).toBe('paid');
    const applied = await h.stripe.subscriptions.retrieve(sub.id);
    expect(applied.items.data[0]!.quantity).toBe(8);
    expect(applied.pending_update).toBeNull();
    await h.receiver.waitFor(
      () => eventsOf(sub.id, 'customer.subscription.pending_update_applied').length === 1,
    );
    const last = eventsOf(sub.id, 'customer.subscription.updated').at(-1)!;
    expect((last.data.object as Stripe.Subscription).items.data[0]!.quantity).toBe(8);
    expect(last.data.previous_attributes).toHaveProperty('items');
  });

  it('3-D Secure: unchanged until the challenge succeeds, then applied', async () => {
    const { sub } = await activeSubscription('pm_card_threeDSecure2Required');
    const updated = await changeTo(sub, 7);
    expect(updated.items.data[0]!.quantity).toBe(5);
    expect(updated.pending_update!.subscription_items![0]!.quantity).toBe(7);
    const invoice = updated.latest_invoice as Stripe.Invoice;
    const intent = await intentOf(invoice);
    expect(intent.status).toBe('requires_action');
    expect((await h.stripe.subscriptions.retrieve(sub.id)).items.data[0]!.quantity).toBe(5);

    await authenticate(h.local, intent, false);
    const failed = await h.stripe.subscriptions.retrieve(sub.id);
    expect(failed.items.data[0]!.quantity).toBe(5);
    expect(failed.pending_update).not.toBeNull();

    const retried = await h.stripe.paymentIntents.confirm(intent.id, {
      payment_method: (
        await h.stripe.paymentMethods.attach('pm_card_threeDSecure2Required', {
          customer: sub.customer as string,
        })
      ).id,
    });
    expect(retried.status).toBe('requires_action');
    await authenticate(h.local, retried, true);
    const applied = await h.stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] });
    expect(applied.items.data[0]!.quantity).toBe(7);
    expect(applied.pending_update).toBeNull();
    expect((applied.latest_invoice as Stripe.Invoice).status).toBe('paid');
    await h.receiver.waitFor(
      () => eventsOf(sub.id, 'customer.subscription.pending_update_applied').length === 1,
    );
  });

  it('expires after 23 hours on a test clock: invoice void, change discarded, the renewal charges the old order', async () => {
    const { clock, sub } = await activeSubscription('pm_card_chargeCustomerFail');
    const updated = await changeTo(sub, 9);
    const invoice = updated.latest_invoice as Stripe.Invoice;
    expect(updated.pending_update!.expires_at).toBe(START + 23 * 3600);

    await advance(h.stripe, clock, START + 23 * 3600 + 60);
    const expired = await h.stripe.subscriptions.retrieve(sub.id);
    expect(expired.pending_update).toBeNull();
    expect(expired.items.data[0]!.quantity).toBe(5);
    expect((await h.stripe.invoices.retrieve(invoice.id)).status).toBe('void');
    await h.receiver.waitFor(
      () => eventsOf(sub.id, 'customer.subscription.pending_update_expired').length === 1,
    );

    // The renewal: 5 seats, not 9 (the 0341 card is still the default: the charge fails, the amount tells).
    await advance(h.stripe, clock, START + 31 * DAY + 60);
    const renewed = await h.stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] });
    const renewal = renewed.latest_invoice as Stripe.Invoice;
    expect(renewal.billing_reason).toBe('subscription_cycle');
    expect(renewal.amount_due).toBe(5000);
  });

  it('a good card applies the change at once, with no pending_update and no pending events', async () => {
    const { sub } = await activeSubscription('pm_card_visa');
    const updated = await changeTo(sub, 6);
    expect(updated.items.data[0]!.quantity).toBe(6);
    expect(updated.pending_update).toBeNull();
    expect((updated.latest_invoice as Stripe.Invoice).status).toBe('paid');
    await h.receiver.waitFor(() =>
      eventsOf(sub.id, 'customer.subscription.updated').some(
        (e) => (e.data.object as Stripe.Subscription).items.data[0]!.quantity === 6,
      ),
    );
    expect(eventsOf(sub.id, 'customer.subscription.pending_update_applied')).toHaveLength(0);
  });

  it('a trial ended by a held change stays a trial until the invoice is paid; voiding it discards the change', async () => {
    const { sub } = await activeSubscription('pm_card_chargeDeclinedInsufficientFunds', { trialDays: 14 });
    const updated = await changeTo(sub, 12, { trial_end: 'now' });
    expect(updated.status).toBe('trialing');
    expect(updated.trial_end).toBe(START + 14 * DAY);
    expect(updated.items.data[0]!.quantity).toBe(5);
    expect(updated.pending_update).toMatchObject({ trial_end: START, expires_at: START + 23 * 3600 });
    const invoice = updated.latest_invoice as Stripe.Invoice;
    expect(invoice.amount_due).toBe(12_000);

    await h.stripe.invoices.voidInvoice(invoice.id);
    const discarded = await h.stripe.subscriptions.retrieve(sub.id);
    expect(discarded.pending_update).toBeNull();
    expect(discarded.status).toBe('trialing');
    expect(discarded.items.data[0]!.quantity).toBe(5);
  });

  it('a newer held change replaces the older one (its invoice voided)', async () => {
    const { sub } = await activeSubscription('pm_card_chargeDeclinedInsufficientFunds');
    const first = await changeTo(sub, 8);
    const second = await changeTo(sub, 10);
    expect(second.pending_update!.subscription_items![0]!.quantity).toBe(10);
    expect((await h.stripe.invoices.retrieve((first.latest_invoice as Stripe.Invoice).id)).status).toBe(
      'void',
    );
    await h.stripe.invoices.pay((second.latest_invoice as Stripe.Invoice).id, {
      payment_method: 'pm_card_visa',
    });
    expect((await h.stripe.subscriptions.retrieve(sub.id)).items.data[0]!.quantity).toBe(10);
  });

  it('refuses the parameters Stripe does not allow with pending_if_incomplete', async () => {
    const { sub, customer } = await activeSubscription('pm_card_visa');
    const pm = await h.stripe.paymentMethods.attach('pm_card_visa', { customer });
    for (const [extra, param] of [
      [{ default_payment_method: pm.id }, 'default_payment_method'],
      [{ description: 'x' }, 'description'],
      [{ cancel_at: START + 40 * DAY }, 'cancel_at'],
      [{ items: [{ id: sub.items.data[0]!.id, quantity: 6, metadata: { a: 'b' } }] }, 'items[0][metadata]'],
    ] as const) {
      const error = await changeTo(sub, 6, extra as Stripe.SubscriptionUpdateParams).catch((e: unknown) => e);
      expect(error).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError', param });
    }
    const unsupported = await changeTo(sub, 6, { cancel_at_period_end: true }).catch((e: unknown) => e);
    expect(unsupported).toMatchObject({ code: 'stripe_local_unsupported', param: 'cancel_at_period_end' });
    expect((await h.stripe.subscriptions.retrieve(sub.id)).items.data[0]!.quantity).toBe(5);
  });
});

describe('a pending update is durable', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'stripe-local-pending-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('survives a SIGKILL right after it was answered and applies when paid after the restart', async () => {
    const file = path.join(dir, 'pending.json');
    let p = await spawnStripeLocal({ snapshotFile: file });
    try {
      const price = await p.stripe.prices.create({
        currency: 'usd',
        unit_amount: 1000,
        recurring: { interval: 'month' },
        product_data: { name: 'Seat' },
      });
      const customer = await p.stripe.customers.create({ email: 'd@example.com' });
      const visa = await p.stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
      const sub = await p.stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: price.id, quantity: 2 }],
        default_payment_method: visa.id,
      });
      const declining = await p.stripe.paymentMethods.attach('pm_card_chargeCustomerFail', {
        customer: customer.id,
      });
      await p.stripe.subscriptions.update(sub.id, { default_payment_method: declining.id });
      const held = await p.stripe.subscriptions.update(sub.id, {
        items: [{ id: sub.items.data[0]!.id, quantity: 4 }],
        proration_behavior: 'always_invoice',
        payment_behavior: 'pending_if_incomplete',
      });
      expect(held.pending_update).not.toBeNull();
      await p.kill();
      p = await spawnStripeLocal({ snapshotFile: file, port: p.port });
      const after = await p.stripe.subscriptions.retrieve(sub.id);
      expect(after.items.data[0]!.quantity).toBe(2);
      expect(after.pending_update).toEqual(held.pending_update);
      await p.stripe.invoices.pay(held.latest_invoice as string, { payment_method: 'pm_card_visa' });
      await p.kill();
      p = await spawnStripeLocal({ snapshotFile: file, port: p.port });
      const applied = await p.stripe.subscriptions.retrieve(sub.id);
      expect(applied.items.data[0]!.quantity).toBe(4);
      expect(applied.pending_update).toBeNull();
    } finally {
      await p.kill();
    }
  });
});
