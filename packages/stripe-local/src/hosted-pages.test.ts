import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './testing/harness.ts';
import { createMonthlyPrice, subscribedCustomer } from './testing/subscriptions.ts';
import { submitForm } from './testing/hosted-form.ts';

let h: Harness;
let monthly: Stripe.Price;
beforeAll(async () => {
  h = await startHarness();
  monthly = await createMonthlyPrice(h.stripe);
});
afterAll(async () => {
  await h?.stop();
});

const card = (number: string) => ({
  cardNumber: number,
  cardExpiry: '12 / 40',
  cardCvc: '123',
  postalCode: '12345',
});

describe('hosted Checkout', () => {
  it('shows the page, pays a subscription and redirects to success_url with the session id', async () => {
    const customer = await h.stripe.customers.create({ email: 'buyer@example.com' });
    const session = await h.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: monthly.id, quantity: 1 }],
      success_url: 'http://portal.test/success?session={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://portal.test/cancel',
      metadata: { tenantId: '7' },
      subscription_data: { metadata: { tenantId: '7' } },
    });
    expect(session.url).toMatch(new RegExp(`^${h.local.url}/c/pay/cs_test_`));
    const html = await (await fetch(session.url!)).text();
    expect(html).toContain('data-testid="card-number"');
    expect(html).toContain('http://portal.test/cancel');

    const declined = await submitForm(session.url!, card('4000000000009995'));
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card has insufficient funds.');

    const paid = await submitForm(session.url!, card('4242424242424242'));
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://portal.test/success?session=${session.id}`);
    const done = await h.stripe.checkout.sessions.retrieve(session.id, {
      expand: ['subscription', 'line_items'],
    });
    expect(done.status).toBe('complete');
    expect(done.payment_status).toBe('paid');
    expect((done.subscription as Stripe.Subscription).status).toBe('active');
    expect((done.subscription as Stripe.Subscription).metadata).toEqual({ tenantId: '7' });
    expect(done.line_items?.data[0]?.quantity).toBe(1);
    const subs = await h.stripe.subscriptions.list({ customer: customer.id, status: 'all' });
    expect(subs.data).toHaveLength(1);
    await h.receiver.waitFor((events) =>
      events.some(
        (e) =>
          e.type === 'checkout.session.completed' &&
          (e.data.object as Stripe.Checkout.Session).id === session.id,
      ),
    );
  });

  it('starts a trial through a 3-D Secure set-up, and a one-off payment with price_data', async () => {
    const customer = await h.stripe.customers.create({ email: 'trial@example.com' });
    const session = await h.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price: monthly.id, quantity: 1 }],
      success_url: 'http://portal.test/ok',
      subscription_data: { trial_period_days: 30 },
    });
    const challenge = await submitForm(session.url!, card('4000002500003155'));
    expect(challenge.status).toBe(303);
    const to = new URL(challenge.headers.get('location')!, h.local.url);
    expect(to.pathname).toMatch(/^\/3ds\/seti_/);
    const page = await (await fetch(to)).text();
    const secret = /name="client_secret" value="([^"]+)"/.exec(page)![1]!;
    const back = await submitForm(`${h.local.url}${to.pathname}/complete`, {
      client_secret: secret,
      return: to.searchParams.get('return')!,
    });
    expect(back.headers.get('location')).toBe(`/c/pay/${session.id}/continue`);
    const finish = await fetch(`${h.local.url}/c/pay/${session.id}/continue`, { redirect: 'manual' });
    expect(finish.headers.get('location')).toBe('http://portal.test/ok');
    const done = await h.stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
    expect(done.payment_status).toBe('no_payment_required');
    expect((done.subscription as Stripe.Subscription).status).toBe('trialing');

    const views = await h.stripe.checkout.sessions.create({
      mode: 'payment',
      customer: customer.id,
      line_items: [
        {
          price_data: { currency: 'usd', product_data: { name: '1,000 views' }, unit_amount: 500 },
          quantity: 2,
        },
      ],
      success_url: 'http://portal.test/views',
      payment_intent_data: { metadata: { kind: 'views' } },
    });
    expect(views.amount_total).toBe(1000);
    expect((await submitForm(views.url!, card('4242424242424242'))).status).toBe(303);
    const paid = await h.stripe.checkout.sessions.retrieve(views.id, { expand: ['payment_intent'] });
    expect((paid.payment_intent as Stripe.PaymentIntent).status).toBe('succeeded');
    expect((paid.payment_intent as Stripe.PaymentIntent).metadata).toEqual({ kind: 'views' });
  });

  it('refuses a recurring price in payment mode and a bad success_url', async () => {
    await expect(
      h.stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [{ price: monthly.id, quantity: 1 }],
        success_url: 'http://x.test/',
      }),
    ).rejects.toMatchObject({ statusCode: 400 });
    await expect(
      h.stripe.checkout.sessions.create({
        mode: 'subscription',
        line_items: [{ price: monthly.id, quantity: 1 }],
        success_url: 'not a url',
      }),
    ).rejects.toMatchObject({ code: 'url_invalid' });
  });
});

describe('billing portal', () => {
  it('cancels at period end, renews, updates the card and pays an open invoice, returns', async () => {
    const customer = await h.stripe.customers.create({
      email: 'portal@example.com',
      payment_method: 'pm_card_visa',
    });
    const pm = (await h.stripe.paymentMethods.list({ customer: customer.id })).data[0]!;
    await h.stripe.customers.update(customer.id, { invoice_settings: { default_payment_method: pm.id } });
    const sub = await h.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: monthly.id }],
    });
    const session = await h.stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'http://portal.test/back',
    });
    const home = await (await fetch(session.url)).text();
    expect(home).toContain('data-testid="portal-cancel"');
    expect(home).toContain('http://portal.test/back');

    expect((await submitForm(`${session.url}/cancel/${sub.id}`, {})).status).toBe(303);
    expect((await h.stripe.subscriptions.retrieve(sub.id)).cancel_at_period_end).toBe(true);
    expect(await (await fetch(session.url)).text()).toContain('data-testid="portal-renew"');
    await submitForm(`${session.url}/renew/${sub.id}`, {});
    expect((await h.stripe.subscriptions.retrieve(sub.id)).cancel_at_period_end).toBe(false);

    const updated = await submitForm(`${session.url}/payment-method`, card('5555555555554444'));
    expect(updated.status).toBe(303);
    const after = await h.stripe.customers.retrieve(customer.id);
    const newPm = await h.stripe.paymentMethods.retrieve(
      (after as Stripe.Customer).invoice_settings.default_payment_method as string,
    );
    expect(newPm.card?.last4).toBe('4444');
  });

  it('runs the subscription_cancel flow and redirects after completion', async () => {
    const { customer, sub } = await subscribedCustomer(h.stripe, monthly);
    const session = await h.stripe.billingPortal.sessions.create({
      customer: customer.id,
      return_url: 'http://portal.test/back',
      flow_data: {
        type: 'subscription_cancel',
        subscription_cancel: { subscription: sub.id },
        after_completion: {
          type: 'redirect',
          redirect: { return_url: 'http://portal.test/success/unsubscribe' },
        },
      },
    });
    expect(session.flow?.type).toBe('subscription_cancel');
    expect(await (await fetch(session.url)).text()).toContain('data-testid="portal-confirm-cancel"');
    const done = await submitForm(`${session.url}/cancel/${sub.id}`, {});
    expect(done.headers.get('location')).toBe('http://portal.test/success/unsubscribe');
    expect((await h.stripe.subscriptions.retrieve(sub.id)).cancel_at_period_end).toBe(true);
  });

  it('confirms a plan change (subscription_update_confirm) with an invoice now', async () => {
    const { customer, sub } = await subscribedCustomer(h.stripe, monthly);
    const yearly = await h.stripe.prices.create({
      currency: 'usd',
      unit_amount: 12240,
      recurring: { interval: 'year' },
      product_data: { name: 'Individual Yearly' },
    });
    const session = await h.stripe.billingPortal.sessions.create({
      customer: customer.id,
      flow_data: {
        type: 'subscription_update_confirm',
        subscription_update_confirm: {
          subscription: sub.id,
          items: [{ id: sub.items.data[0]!.id, price: yearly.id, quantity: 1 }],
        },
        after_completion: {
          type: 'redirect',
          redirect: { return_url: 'http://portal.test/success/subscribe/9' },
        },
      },
    });
    expect(await (await fetch(session.url)).text()).toContain('Individual Yearly');
    const done = await submitForm(`${session.url}/update-confirm`, {});
    expect(done.headers.get('location')).toBe('http://portal.test/success/subscribe/9');
    const changed = await h.stripe.subscriptions.retrieve(sub.id, { expand: ['latest_invoice'] });
    expect(changed.items.data[0]!.price.id).toBe(yearly.id);
    const invoice = changed.latest_invoice as Stripe.Invoice;
    expect(invoice.billing_reason).toBe('subscription_update');
    expect(invoice.status).toBe('paid');
    expect(
      changed.items.data[0]!.current_period_end - changed.items.data[0]!.current_period_start,
    ).toBeGreaterThan(360 * 86_400);
  });
});
