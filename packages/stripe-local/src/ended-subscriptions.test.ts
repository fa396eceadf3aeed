import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advance, DAY, startHarness, type Harness } from './testing/harness.ts';
import { createMonthlyPrice, subscribedCustomer } from './testing/subscriptions.ts';
import { submitForm } from './testing/hosted-form.ts';

let h: Harness;
let unpaid: Harness;
let monthly: Stripe.Price;

beforeAll(async () => {
  h = await startHarness();
  unpaid = await startHarness({ afterRetries: { subscription: 'unpaid', invoice: 'past_due' } });
  monthly = await createMonthlyPrice(h.stripe);
});
afterAll(async () => {
  await h?.stop();
  await unpaid?.stop();
});

async function clockedCustomer(stripe: Stripe, paymentMethod: string) {
  const start = Math.floor(Date.UTC(2027, 0, 10) / 1000);
  const clock = await stripe.testHelpers.testClocks.create({ frozen_time: start });
  const customer = await stripe.customers.create({ test_clock: clock.id });
  const pm = (await stripe.paymentMethods.attach(paymentMethod, { customer: customer.id })).id;
  await stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm } });
  return { clock: clock.id, customer: customer.id, start };
}

const paidInvoices = async (stripe: Stripe, customer: string) =>
  (await stripe.invoices.list({ customer, status: 'paid' })).data.filter((i) => i.amount_paid > 0);

describe('invoices of ended subscriptions', () => {
  it('after the last retry: subscription canceled, invoice uncollectible (default settings)', async () => {
    const { clock, customer, start } = await clockedCustomer(h.stripe, 'pm_card_chargeCustomerFail');
    const sub = await h.stripe.subscriptions.create({
      customer,
      items: [{ price: monthly.id }],
      trial_period_days: 7,
    });
    await advance(h.stripe, clock, start + 7 * DAY + 60);
    const pastDue = await h.stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] });
    expect(pastDue.status).toBe('past_due');
    const invoice = pastDue.latest_invoice as Stripe.Invoice;
    await advance(h.stripe, clock, start + 16 * DAY);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).status).toBe('canceled');
    const ended = await h.stripe.invoices.retrieve(invoice.id);
    expect(ended.status).toBe('uncollectible');
    expect(ended.auto_advance).toBe(false);
    expect(ended.next_payment_attempt).toBeNull();
    expect(ended.status_transitions.marked_uncollectible_at).not.toBeNull();
    await h.receiver.waitFor((events) =>
      events.some(
        (e) =>
          e.type === 'invoice.marked_uncollectible' && (e.data.object as Stripe.Invoice).id === invoice.id,
      ),
    );
    // A void afterwards is allowed (Stripe voids open or uncollectible invoices).
    expect((await h.stripe.invoices.voidInvoice(invoice.id)).status).toBe('void');
  });

  it('with "mark unpaid" settings: subscription unpaid, invoice open, paid later makes it active', async () => {
    const s = unpaid.stripe;
    const price = await s.prices.create({
      currency: 'usd',
      unit_amount: 1200,
      recurring: { interval: 'month' },
      product_data: { name: 'Plan' },
    });
    const { clock, customer, start } = await clockedCustomer(s, 'pm_card_visa');
    const sub = await s.subscriptions.create({ customer, items: [{ price: price.id }] });
    const failing = await s.paymentMethods.attach('pm_card_chargeCustomerFail', { customer });
    await s.customers.update(customer, { invoice_settings: { default_payment_method: failing.id } });
    const periodEnd = sub.items.data[0]!.current_period_end;
    await advance(s, clock, periodEnd + 8 * DAY);
    const after = await s.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] });
    expect(after.status).toBe('unpaid');
    const invoice = after.latest_invoice as Stripe.Invoice;
    expect(invoice.status).toBe('open');
    expect(invoice.next_payment_attempt).toBeNull();
    // No renewal while unpaid.
    await advance(s, clock, periodEnd + 40 * DAY);
    expect((await s.invoices.list({ subscription: sub.id })).data).toHaveLength(2);
    await s.invoices.pay(invoice.id, { payment_method: 'pm_card_visa' });
    expect((await s.subscriptions.retrieve(sub.id)).status).toBe('active');
    void start;
  });

  it('cancel now: open invoices stop being collected; a later card update never charges them', async () => {
    // Issue 15's double charge: trial ended by a failing card, cancel, subscribe again, update the card.
    const { clock, customer, start } = await clockedCustomer(h.stripe, 'pm_card_chargeCustomerFail');
    const first = await h.stripe.subscriptions.create({
      customer,
      items: [{ price: monthly.id }],
      trial_period_days: 7,
    });
    await advance(h.stripe, clock, start + 7 * DAY + 60);
    const open = (await h.stripe.subscriptions.retrieve(first.id, { expand: ['latest_invoice'] }))
      .latest_invoice as Stripe.Invoice;
    expect(open.status).toBe('open');
    await h.stripe.subscriptions.cancel(first.id);
    const stopped = await h.stripe.invoices.retrieve(open.id);
    expect(stopped.status).toBe('open');
    expect(stopped.auto_advance).toBe(false);
    expect(stopped.next_payment_attempt).toBeNull();

    const second = await h.stripe.subscriptions.create({
      customer,
      items: [{ price: monthly.id }],
      default_payment_method: (await h.stripe.paymentMethods.attach('pm_card_visa', { customer })).id,
    });
    expect(second.status).toBe('active');
    // The customer updates the card in the hosted portal: only collectable invoices are paid.
    const portal = await h.stripe.billingPortal.sessions.create({ customer, return_url: 'http://x.test' });
    const saved = await submitForm(`${portal.url}/payment-method`, {
      cardNumber: '4242424242424242',
      cardExpiry: '12 / 40',
      cardCvc: '123',
    });
    expect(saved.status).toBe(303);
    // Retries that were due are not run either.
    await advance(h.stripe, clock, start + 20 * DAY);
    expect((await h.stripe.invoices.retrieve(open.id)).status).toBe('open');
    expect((await paidInvoices(h.stripe, customer)).map((i) => i.amount_paid)).toEqual([1200]);
    // The product voids it, as issue 15 asks; paying a void invoice is refused.
    expect((await h.stripe.invoices.voidInvoice(open.id)).status).toBe('void');
    await expect(h.stripe.invoices.pay(open.id)).rejects.toMatchObject({ code: 'invoice_not_editable' });
  });

  it('void and mark_uncollectible refuse what Stripe refuses', async () => {
    const { customer, sub } = await subscribedCustomer(h.stripe, monthly);
    const paid = sub.latest_invoice as string;
    await expect(h.stripe.invoices.voidInvoice(paid)).rejects.toMatchObject({ code: 'invoice_not_editable' });
    await expect(h.stripe.invoices.markUncollectible(paid)).rejects.toMatchObject({
      code: 'invoice_not_editable',
    });
    const incomplete = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: monthly.id }],
      payment_behavior: 'default_incomplete',
    });
    const open = incomplete.latest_invoice as string;
    expect((await h.stripe.invoices.markUncollectible(open)).status).toBe('uncollectible');
    const updated = await h.stripe.invoices.update(open, { metadata: { note: 'x' }, auto_advance: false });
    expect(updated.metadata).toEqual({ note: 'x' });
  });

  it('cancel with prorate credits the unused time on the next invoice; invoice_now bills it at once', async () => {
    const { clock, customer, start } = await clockedCustomer(h.stripe, 'pm_card_visa');
    const a = await h.stripe.subscriptions.create({ customer, items: [{ price: monthly.id }] });
    const periodEnd = a.items.data[0]!.current_period_end;
    const half = start + Math.floor((periodEnd - start) / 2);
    await advance(h.stripe, clock, half);
    await h.stripe.subscriptions.cancel(a.id, { prorate: true });
    const b = await h.stripe.subscriptions.create({
      customer,
      items: [{ price: monthly.id }],
      expand: ['latest_invoice'],
    });
    const first = b.latest_invoice as Stripe.Invoice;
    // Half of $12 credited against the new $12.
    expect(first.amount_due).toBe(600);

    const c = await h.stripe.subscriptions.create({ customer, items: [{ price: monthly.id }] });
    await h.stripe.subscriptions.cancel(c.id, { prorate: true, invoice_now: true });
    const final = (await h.stripe.invoices.list({ subscription: c.id })).data[0]!;
    expect(final.billing_reason).toBe('subscription_update');
    expect(final.amount_due).toBe(0);
    expect(final.lines.data.some((l) => l.amount < 0)).toBe(true);
  });
});
