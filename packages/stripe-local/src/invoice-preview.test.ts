import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, DAY, startHarness, type Harness } from './testing/harness.ts';

// invoices.createPreview answers what stripe-local then really invoices for the same change.

let h: Harness;
let seat: Stripe.Price;
let yearly: Stripe.Price;
let tiered: Stripe.Price;
beforeAll(async () => {
  h = await startHarness();
  seat = await h.stripe.prices.create({
    currency: 'usd',
    unit_amount: 1000,
    recurring: { interval: 'month' },
    product_data: { name: 'Seat' },
  });
  yearly = await h.stripe.prices.create({
    currency: 'usd',
    unit_amount: 9900,
    recurring: { interval: 'year' },
    product_data: { name: 'Seat Yearly' },
  });
  tiered = await h.stripe.prices.create({
    currency: 'usd',
    recurring: { interval: 'month' },
    product_data: { name: 'Educator' },
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

const START = Math.floor(Date.UTC(2027, 4, 1) / 1000);

async function subscribed(
  price: Stripe.Price,
  quantity: number,
  options: { trialDays?: number; coupon?: string } = {},
) {
  const clock = await h.stripe.testHelpers.testClocks.create({ frozen_time: START });
  const customer = await h.stripe.customers.create({ email: 'v@example.com', test_clock: clock.id });
  const pm = await h.stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
  await h.stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } });
  const sub = await h.stripe.subscriptions.create({
    customer: customer.id,
    items: [{ price: price.id, quantity }],
    ...(options.trialDays ? { trial_period_days: options.trialDays } : {}),
    ...(options.coupon ? { discounts: [{ coupon: options.coupon }] } : {}),
  });
  return { clock: clock.id, customer: customer.id, sub, item: sub.items.data[0]!.id };
}

const amounts = (invoice: Stripe.Invoice) => invoice.lines.data.map((l) => l.amount).sort((a, b) => a - b);

/** Previews a change, makes it for real (always_invoice), and returns both invoices. */
async function previewThenChange(
  s: Awaited<ReturnType<typeof subscribed>>,
  details: Stripe.InvoiceCreatePreviewParams.SubscriptionDetails,
) {
  const before = (await h.stripe.invoices.list({ customer: s.customer })).data.length;
  const preview = await h.stripe.invoices.createPreview({
    customer: s.customer,
    subscription: s.sub.id,
    subscription_details: details,
  });
  // Nothing is made by a preview.
  expect((await h.stripe.invoices.list({ customer: s.customer })).data.length).toBe(before);
  const updated = await h.stripe.subscriptions.update(s.sub.id, {
    items: details.items!.map((i) => ({ id: i.id, price: i.price, quantity: i.quantity })),
    proration_behavior: details.proration_behavior,
    ...(details.proration_date ? { proration_date: details.proration_date } : {}),
    ...(details.trial_end ? { trial_end: details.trial_end } : {}),
    payment_behavior: 'pending_if_incomplete',
    expand: ['latest_invoice'],
  });
  return { preview, invoice: updated.latest_invoice as Stripe.Invoice, updated };
}

describe('invoices.createPreview', () => {
  it('a seat change with always_invoice: the prorations of the invoice then made', async () => {
    const s = await subscribed(tiered, 11);
    await advance(h.stripe, s.clock, START + 9 * DAY);
    const { preview, invoice } = await previewThenChange(s, {
      items: [{ id: s.item, quantity: 14 }],
      proration_behavior: 'always_invoice',
      proration_date: START + 9 * DAY,
    });
    expect(preview.id).toMatch(/^upcoming_in_/);
    expect(preview.status).toBe('draft');
    expect(preview.billing_reason).toBe('subscription_update');
    expect(preview.lines.data.every((l) => l.parent?.subscription_item_details?.proration)).toBe(true);
    // 14 seats (9900 + 4 × 900) for 11 (9900 + 900), for 22 of 31 days.
    expect(preview.amount_due).toBe(Math.round(13_500 * (22 / 31)) - Math.round(10_800 * (22 / 31)));
    expect(invoice.amount_due).toBe(preview.amount_due);
    expect(invoice.total).toBe(preview.total);
    expect(amounts(invoice)).toEqual(amounts(preview));
  });

  it('proration_date in the past prorates from then, for the preview and the change alike', async () => {
    const s = await subscribed(seat, 5);
    await advance(h.stripe, s.clock, START + 20 * DAY);
    const { preview, invoice } = await previewThenChange(s, {
      items: [{ id: s.item, quantity: 8 }],
      proration_behavior: 'always_invoice',
      proration_date: START + 10 * DAY,
    });
    expect(preview.amount_due).toBe(Math.round(8000 * (21 / 31)) - Math.round(5000 * (21 / 31)));
    expect(invoice.amount_due).toBe(preview.amount_due);
  });

  it('a trial ended by a plan change: the whole new period now', async () => {
    const s = await subscribed(seat, 5, { trialDays: 14 });
    const { preview, invoice, updated } = await previewThenChange(s, {
      items: [{ id: s.item, price: tiered.id, quantity: 12 }],
      proration_behavior: 'always_invoice',
      trial_end: 'now',
    });
    expect(preview.amount_due).toBe(9900 + 2 * 900);
    expect(invoice.amount_due).toBe(preview.amount_due);
    expect(updated.status).toBe('active');
    expect(preview.lines.data[0]!.period).toEqual(invoice.lines.data[0]!.period);
  });

  it('a change of interval: the credit for the unused month and the first year', async () => {
    const s = await subscribed(seat, 3);
    await advance(h.stripe, s.clock, START + 5 * DAY);
    const { preview, invoice } = await previewThenChange(s, {
      items: [{ id: s.item, price: yearly.id, quantity: 3 }],
      proration_behavior: 'create_prorations',
    });
    expect(preview.amount_due).toBe(3 * 9900 - Math.round(3000 * (26 / 31)));
    expect(invoice.amount_due).toBe(preview.amount_due);
  });

  it('create_prorations: the next renewal with the prorations waiting for it, as then invoiced', async () => {
    const s = await subscribed(seat, 4, {
      coupon: (await h.stripe.coupons.create({ percent_off: 10, duration: 'forever' })).id,
    });
    await advance(h.stripe, s.clock, START + 15 * DAY);
    const preview = await h.stripe.invoices.createPreview({
      subscription: s.sub.id,
      subscription_details: { items: [{ id: s.item, quantity: 6 }], proration_date: START + 15 * DAY },
    });
    expect(preview.billing_reason).toBe('subscription_cycle');
    expect(preview.next_payment_attempt).toBe(START + 31 * DAY);
    const proration = Math.round(6000 * (16 / 31)) - Math.round(4000 * (16 / 31));
    expect(preview.amount_due).toBe(proration + 6000 - 600);
    await h.stripe.subscriptions.update(s.sub.id, { items: [{ id: s.item, quantity: 6 }] });
    await advance(h.stripe, s.clock, START + 31 * DAY + 60);
    const renewed = await h.stripe.subscriptions.retrieve(s.sub.id, { expand: ['latest_invoice'] });
    const renewal = renewed.latest_invoice as Stripe.Invoice;
    expect(renewal.billing_reason).toBe('subscription_cycle');
    expect(renewal.amount_due).toBe(preview.amount_due);
    expect(amounts(renewal)).toEqual(amounts(preview));
  });

  it('without details: the upcoming renewal, at the subscription period end', async () => {
    const s = await subscribed(tiered, 12);
    const preview = await h.stripe.invoices.createPreview({ customer: s.customer, subscription: s.sub.id });
    expect(preview.amount_due).toBe(9900 + 2 * 900);
    expect(preview.next_payment_attempt).toBe(s.sub.items.data[0]!.current_period_end);
    await h.stripe.subscriptions.update(s.sub.id, { cancel_at_period_end: true });
    const none = await h.stripe.invoices
      .createPreview({ subscription: s.sub.id })
      .catch((e: { code?: string; statusCode?: number }) => e);
    expect(none).toMatchObject({ statusCode: 404, code: 'invoice_upcoming_none' });
  });

  it('a new subscription: the full first period, or $0 with a trial', async () => {
    const customer = await h.stripe.customers.create({ email: 'n@example.com' });
    const paid = await h.stripe.invoices.createPreview({
      customer: customer.id,
      subscription_details: { items: [{ price: tiered.id, quantity: 11 }] },
    });
    expect(paid.amount_due).toBe(9900 + 900);
    expect(paid.billing_reason).toBe('subscription_create');
    const trial = await h.stripe.invoices.createPreview({
      customer: customer.id,
      subscription_details: {
        items: [{ price: tiered.id, quantity: 11 }],
        trial_end: Math.floor(Date.now() / 1000) + 14 * DAY,
      },
    });
    expect(trial.amount_due).toBe(0);
    const unsupported = await h.stripe.invoices
      .createPreview({ customer: customer.id, subscription_details: { cancel_now: true } })
      .catch((e: { code?: string }) => e);
    expect(unsupported).toMatchObject({ code: 'stripe_local_unsupported' });
  });
});
