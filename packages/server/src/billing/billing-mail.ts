import type { BillingEmailPayload } from '@helix/shared';
import { MSG } from '@helix/shared';
import type { Db } from '../db.ts';
import { renderLayout, type RenderedMail } from '../mail/layout.ts';

/**
 * The billing e-mails, in the one mail layout (mail/layout.ts): payment failed and trial ending, to the
 * tenant's owner, with a link to the subscription page (the worker's billing-email job); the receipt and
 * the payment to confirm (billing-receipt.command.ts).
 */
export function renderBillingMail(
  kind: BillingEmailPayload['kind'],
  vars: { name: string; link: string; planName: string; trialEnd?: Date | null },
): RenderedMail {
  const lines =
    kind === 'payment-failed'
      ? [
          `Hello ${vars.name},`,
          MSG.paymentFailedBanner,
          `Your ${vars.planName} plan stays available while the payment is retried. Update your card on the subscription page so it keeps working.`,
        ]
      : [
          `Hello ${vars.name},`,
          `Your free trial of ${vars.planName} ends${vars.trialEnd ? ` on ${vars.trialEnd.toUTCString().slice(0, 16)}` : ' soon'}.`,
          'Your card will then be charged for the plan. To change or cancel it, open the subscription page.',
        ];
  const subject = kind === 'payment-failed' ? 'Your Helix payment has failed' : 'Your Helix trial ends soon';
  return renderLayout(subject, lines, { label: 'Open the subscription page', link: vars.link });
}

/** The recipient and the rendered mail of one billing-email job, or null when there is no owner. */
export async function billingMailFor(
  db: Db,
  publicUrl: string,
  payload: BillingEmailPayload,
): Promise<{ to: string; mail: RenderedMail } | null> {
  const tenant = await db.tenant.findUnique({
    where: { id: payload.tenantId },
    include: {
      users: { where: { isOwner: true, deletedAt: null }, take: 1 },
      subscription: { include: { plan: true } },
    },
  });
  const owner = tenant?.users[0];
  if (!tenant || !owner) return null;
  const link = new URL('/user/settings/subscription', publicUrl).toString();
  return {
    to: owner.email,
    mail: renderBillingMail(payload.kind, {
      name: owner.name,
      link,
      planName: tenant.subscription?.plan?.name ?? 'Helix',
      trialEnd: tenant.subscription?.trialEnd,
    }),
  };
}

const money = (cents: number, currency: string) =>
  `${currency.toUpperCase() === 'USD' ? '$' : `${currency.toUpperCase()} `}${(cents / 100).toFixed(2)}`;
const day = (unix: number | null | undefined) =>
  unix ? new Date(unix * 1000).toUTCString().slice(5, 16) : null;

/** The receipt of a paid invoice: amount, invoice number, period, and a link to the invoice. */
export function renderReceiptMail(vars: {
  name: string;
  amountPaid: number;
  currency: string;
  number: string | null;
  paidAt: number | null;
  periodStart: number | null;
  periodEnd: number | null;
  description: string | null;
  link: string;
}): RenderedMail {
  const amount = money(vars.amountPaid, vars.currency);
  const period =
    vars.periodStart && vars.periodEnd && vars.periodEnd > vars.periodStart
      ? `Period: ${day(vars.periodStart)} to ${day(vars.periodEnd)}.`
      : null;
  const lines = [
    `Hello ${vars.name},`,
    `Thank you for your payment of ${amount}${vars.paidAt ? ` on ${day(vars.paidAt)}` : ''}.`,
    ...(vars.number ? [`Invoice ${vars.number}${vars.description ? `: ${vars.description}` : ''}.`] : []),
    ...(period ? [period] : []),
    'You can see and download the invoice at any time from the link below or the Billing history page.',
  ];
  return renderLayout(`Your Helix receipt${vars.number ? ` ${vars.number}` : ''}: ${amount} paid`, lines, {
    label: 'View the invoice',
    link: vars.link,
  });
}

/** A payment that needs the customer's confirmation (3-D Secure): a link to Stripe's invoice page. */
export function renderActionRequiredMail(vars: {
  name: string;
  amountDue: number;
  currency: string;
  planName: string;
  link: string;
}): RenderedMail {
  const lines = [
    `Hello ${vars.name},`,
    `Your bank asks you to confirm the payment of ${money(vars.amountDue, vars.currency)} for your ${vars.planName} plan.`,
    'Open the link below to complete it. Until it is complete, your plan stays as it was.',
  ];
  return renderLayout('Please confirm your Helix payment', lines, {
    label: 'Complete the payment',
    link: vars.link,
  });
}
