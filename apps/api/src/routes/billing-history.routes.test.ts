import { describe, expect, it } from 'vitest';
import { CardCheckoutView, InvoiceListView } from '@helix/shared/schemas/billing';
import { syncTenantSubscription } from '@helix/server/billing/sync-subscription.command';
import { sendInvoiceReceipt } from '@helix/server/billing/billing-receipt.command';
import { createMailTransport } from '@helix/server/mail/transport';
import { startMailSink } from '../../test/mail-sink.ts';
import {
  customer,
  EDUCATOR_MONTHLY,
  ENTERPRISE_MONTHLY,
  forgetTrialCards,
  INDIVIDUAL_MONTHLY,
  paidTenant,
  payCheckout,
  storedSubscription,
  summaryOf,
  trialTenant,
  useBillingBed,
  userInfo,
  waitFor,
  type Customer,
} from '../../test/billing.ts';

/**
 * Billing History never sells the wrong plan (issue 28, item 2): a card form's attempt that was left
 * or superseded is never offered for payment, is voided, and cannot replace the plan in force; the
 * open invoice of a plan whose payment failed is the one offered.
 */

const bed = useBillingBed();

async function history(c: Customer) {
  const res = await c.get('/subscription/invoices?limit=20');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return InvoiceListView.parse(res.body).invoices;
}

/** The sync as the reconcile job runs it, with attempts counting as abandoned after `ttlMs`. */
const syncWithTtl = (tenantId: number, ttlMs: number) =>
  syncTenantSubscription(
    { ...bed.h.deps, config: { ...bed.h.deps.config, BILLING_ATTEMPT_TTL_MS: ttlMs } },
    tenantId,
  );

describe('an attempt that was left', () => {
  it('is listed without a Pay link, voided once abandoned, and cannot be paid or replace the live plan', async () => {
    const { c, subscriptionId: educator } = await paidTenant(bed, EDUCATOR_MONTHLY);
    const checkout = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: INDIVIDUAL_MONTHLY })).body,
    );
    const listed = (await history(c)).find((i) => i.id === checkout.invoiceId)!;
    expect([listed.status, listed.payable, listed.hostedInvoiceUrl]).toEqual(['open', false, null]);

    // Within the attempt time the card form may still be paid; past it, the attempt is over.
    await syncWithTtl(c.tenant.id, 60 * 60 * 1000);
    expect((await bed.stripe.invoices.retrieve(checkout.invoiceId)).status).toBe('open');
    await new Promise((r) => setTimeout(r, 1100));
    await syncWithTtl(c.tenant.id, 0);
    expect((await bed.stripe.invoices.retrieve(checkout.invoiceId)).status).toBe('void');
    expect((await bed.stripe.subscriptions.retrieve(checkout.subscriptionId)).status).not.toBe('incomplete');
    await expect(
      bed.stripe.invoices.pay(checkout.invoiceId, { payment_method: 'pm_card_visa' }),
    ).rejects.toThrow();
    await expect(
      bed.stripe.paymentIntents.confirm(checkout.paymentIntent.id, { payment_method: 'pm_card_visa' }),
    ).rejects.toThrow();

    const after = (await history(c)).find((i) => i.id === checkout.invoiceId)!;
    expect([after.status, after.payable]).toEqual(['void', false]);
    expect((await bed.stripe.subscriptions.retrieve(educator)).status).toBe('active');
    const stored = await storedSubscription(bed, c.tenant.id);
    expect([stored.planId, stored.stripeSubscriptionId, stored.status]).toEqual([
      EDUCATOR_MONTHLY,
      educator,
      'active',
    ]);
  });

  it('a declined attempt superseded by another one is cancelled and its invoice voided', async () => {
    const { c, subscriptionId: educator } = await paidTenant(bed, EDUCATOR_MONTHLY);
    const first = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: INDIVIDUAL_MONTHLY })).body,
    );
    await expect(
      bed.stripe.paymentIntents.confirm(first.paymentIntent.id, {
        payment_method: 'pm_card_chargeDeclinedInsufficientFunds',
      }),
    ).rejects.toThrow(/declined|insufficient/i);
    const second = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: ENTERPRISE_MONTHLY, quantity: 50 })).body,
    );
    expect(second.subscriptionId).not.toBe(first.subscriptionId);
    await waitFor(
      async () => (await bed.stripe.invoices.retrieve(first.invoiceId)).status === 'void',
      'the superseded invoice voided',
    );
    expect((await bed.stripe.subscriptions.retrieve(first.subscriptionId)).status).toBe('canceled');
    // The newest attempt is still the card form's to pay; the live plan is untouched.
    expect((await bed.stripe.invoices.retrieve(second.invoiceId)).status).toBe('open');
    expect((await bed.stripe.subscriptions.retrieve(educator)).status).toBe('active');
    const rows = await history(c);
    expect(rows.filter((i) => i.payable)).toEqual([]);
    expect(rows.filter((i) => i.status === 'open' && i.hostedInvoiceUrl)).toEqual([]);
  });
});

describe('a first card form that was left', () => {
  it('is voided once abandoned and leaves the tenant not subscribed (never "deactivated")', async () => {
    const c = await customer(bed);
    await bed.h.db.tenantSubscription.upsert({
      where: { tenantId: c.tenant.id },
      update: { isTrialPassed: true },
      create: { tenantId: c.tenant.id, isTrialPassed: true },
    });
    const checkout = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: INDIVIDUAL_MONTHLY })).body,
    );
    await new Promise((r) => setTimeout(r, 1100));
    await syncWithTtl(c.tenant.id, 0);
    expect((await bed.stripe.invoices.retrieve(checkout.invoiceId)).status).toBe('void');
    const stored = await storedSubscription(bed, c.tenant.id);
    expect([stored.status, stored.stripeSubscriptionId]).toEqual(['none', null]);
    const summary = await summaryOf(c);
    expect(summary.state).toBe('not_subscribed');
    const session = (await userInfo(c)).subscription;
    expect(session?.status ?? 'none').toBe('none');
    // The tenant can subscribe again at once.
    const again = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: INDIVIDUAL_MONTHLY })).body,
    );
    expect(again.subscriptionId).not.toBe(checkout.subscriptionId);
  });
});

describe('a plan whose payment failed', () => {
  it('offers its open invoice for payment', async () => {
    await forgetTrialCards(bed);
    const { c, sub } = await trialTenant(bed, INDIVIDUAL_MONTHLY, 'pm_card_chargeCustomerFail');
    await bed.stripe.subscriptions.update(sub.id, { trial_end: 'now' });
    await waitFor(async () => (await storedSubscription(bed, c.tenant.id)).status === 'past_due', 'past_due');
    const open = (await history(c)).filter((i) => i.status === 'open');
    expect(open).toHaveLength(1);
    expect(open[0]!.payable).toBe(true);
    expect(open[0]!.hostedInvoiceUrl).toMatch(/^http/);
  });
});

describe('Buy Views', () => {
  it('leaves a paid invoice in Billing History and one receipt e-mail', async () => {
    const { c } = await paidTenant(bed, EDUCATOR_MONTHLY);
    const res = await c.post('/subscription/create_views', {
      quantity: 1,
      successUrl: '/user/home',
      cancelUrl: '/user/home',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await payCheckout(bed, res.body.url);
    const row = await waitFor(
      async () => (await history(c)).find((i) => i.description === '1,000 additional views'),
      'the views invoice in Billing History',
    );
    expect([row.status, row.total, row.amountPaid, row.payable]).toEqual(['paid', 400, 400, false]);
    expect(row.hostedInvoiceUrl).toMatch(/^http/);
    expect(row.invoicePdf).toMatch(/^http/);

    // invoice.paid queued the receipt job for this invoice; the job mails it once.
    const job = await waitFor(async () => {
      const jobs = await bed.h.deps.queue.queueOf('email').getJobs(['waiting', 'delayed', 'completed']);
      return jobs.find((j) => j.name === 'billing-receipt' && j.data.invoiceId === row.id);
    }, 'the receipt job');
    const sink = await startMailSink();
    try {
      const deps = {
        billing: bed.h.deps,
        transport: createMailTransport(sink.url),
        from: 'billing@helix.test',
      };
      expect(await sendInvoiceReceipt(deps, job.data)).toEqual({ sent: true });
      expect(await sendInvoiceReceipt(deps, job.data)).toMatchObject({ sent: false });
      await sink.waitFor(1);
      expect(sink.mails).toHaveLength(1);
      expect(sink.mails[0]!.to).toEqual([c.owner.email]);
      expect(sink.mails[0]!.raw).toContain('$4.00');
      expect(sink.mails[0]!.raw).toContain('1,000 additional views');
    } finally {
      await sink.stop();
    }
  });
});
