import { describe, expect, it } from 'vitest';
import { InvoiceListView, PlanChangeView } from '@helix/shared/schemas/billing';
import { sendActionRequiredMail } from '@helix/server/billing/billing-receipt.command';
import { createMailTransport } from '@helix/server/mail/transport';
import { startMailSink } from '../../test/mail-sink.ts';
import {
  answerThreeDSecure,
  EDUCATOR_MONTHLY,
  ENTERPRISE_MONTHLY,
  INDIVIDUAL_MONTHLY,
  paidTenant,
  storedSubscription,
  summaryOf,
  useBillingBed,
  waitFor,
} from '../../test/billing.ts';

/**
 * The figures and words a bursar checks (issue 28, items 6 and 7): the next charge is the plan's real
 * next amount, the confirm-payment e-mail names the plan being paid for, and an invoice is described
 * by its plan line, not by a credit line.
 */

const bed = useBillingBed();

describe('an upgrade from Individual to Educator on a 3-D Secure card', () => {
  it('mails a confirmation for Educator, then shows $99 next and describes the invoice by its plan line', async () => {
    const { c, subscriptionId } = await paidTenant(bed, INDIVIDUAL_MONTHLY);
    const customerId = (await bed.h.db.tenant.findUniqueOrThrow({ where: { id: c.tenant.id } }))
      .stripeCustomerId!;
    const pm = await bed.stripe.paymentMethods.attach('pm_card_authenticationRequired', {
      customer: customerId,
    });
    await bed.stripe.subscriptions.update(subscriptionId, { default_payment_method: pm.id });
    const change = PlanChangeView.parse(
      (await c.post('/subscription/change-plan', { planId: EDUCATOR_MONTHLY })).body,
    );
    expect(change.outcome).toBe('requires_action');

    const sink = await startMailSink();
    try {
      const deps = {
        billing: bed.h.deps,
        transport: createMailTransport(sink.url),
        from: 'billing@helix.test',
      };
      const action = { tenantId: c.tenant.id, invoiceId: change.paymentAction!.invoiceId };
      expect(await sendActionRequiredMail(deps, action)).toEqual({ sent: true });
      await sink.waitFor(1);
      expect(sink.mails[0]!.raw).toContain('for your Educator Monthly plan');
      expect(sink.mails[0]!.raw).not.toContain('Individual Monthly plan');
    } finally {
      await sink.stop();
    }

    await answerThreeDSecure(bed, change.paymentAction!.paymentIntent!, true);
    await waitFor(
      async () => (await storedSubscription(bed, c.tenant.id)).planId === EDUCATOR_MONTHLY,
      'the upgrade applied',
    );
    const summary = await summaryOf(c);
    expect(summary.pricePerPeriod).toBe(9900);
    expect(summary.nextCharge).toMatchObject({ amount: 9900, credit: 0 });
    expect(summary.nextCharge!.date).toBe(summary.currentPeriodEnd);

    const invoices = InvoiceListView.parse((await c.get('/subscription/invoices?limit=10')).body).invoices;
    const upgrade = invoices.find((i) => i.id === change.paymentAction!.invoiceId)!;
    expect(upgrade.status).toBe('paid');
    expect(upgrade.description).toMatch(/Educator Monthly/);
    expect(upgrade.description).not.toMatch(/Unused time/);
  });
});

describe('a next charge covered by credit', () => {
  it('says what is charged and the credit taken off it (not a bare $0.00)', async () => {
    // Enterprise paid for a month, ended at once: its unused time is credit for the next invoices.
    const { c, subscriptionId } = await paidTenant(bed, ENTERPRISE_MONTHLY, 50);
    expect((await c.post('/subscription/cancel_subscription', { subscriptionId })).status).toBe(200);
    const res = await c.post('/subscription/payment-intent', { planId: EDUCATOR_MONTHLY });
    // The first Educator month is covered by the credit: nothing to pay now.
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    await waitFor(
      async () => (await storedSubscription(bed, c.tenant.id)).planId === EDUCATOR_MONTHLY,
      'Educator in force',
    );
    const next = (await summaryOf(c)).nextCharge!;
    // Enterprise's unused month (~$399) pays the first Educator month and most of the next one.
    expect(next.amount + next.credit).toBe(9900);
    expect(next.credit).toBeGreaterThan(0);
  });
});
