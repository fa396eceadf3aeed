import type { Transporter } from 'nodemailer';
import type { BillingActionRequiredPayload, BillingReceiptPayload } from '@helix/shared';
import { renderActionRequiredMail, renderReceiptMail } from './billing-mail.ts';
import { planLineOf, presentInvoiceRow } from './billing.presenter.ts';
import { invoicePaymentIntent } from './invoice-payment.ts';
import { stripeOf, type Stripe } from './stripe-client.ts';
import { stripeObjectMissing, type BillingDeps } from './tenant-billing.ts';

export interface BillingMailDeps {
  billing: Pick<BillingDeps, 'db' | 'config' | 'stripe' | 'logger'>;
  transport: Transporter;
  from: string;
}

/** The tenant's owner and customer id, or null (no owner, or the invoice is not this tenant's). */
async function ownerOf(deps: BillingMailDeps, tenantId: number) {
  const tenant = await deps.billing.db.tenant.findUnique({
    where: { id: tenantId },
    include: {
      users: { where: { isOwner: true, deletedAt: null }, take: 1 },
      subscription: { include: { plan: true } },
    },
  });
  const owner = tenant?.users[0];
  return tenant && owner ? { tenant, owner } : null;
}

async function tenantInvoice(
  deps: BillingMailDeps,
  customerId: string | null,
  invoiceId: string,
): Promise<Stripe.Invoice | null> {
  if (!customerId) return null;
  try {
    const invoice = await stripeOf(deps.billing).invoices.retrieve(invoiceId);
    const customer = typeof invoice.customer === 'string' ? invoice.customer : invoice.customer?.id;
    return customer === customerId ? invoice : null;
  } catch (error) {
    if (stripeObjectMissing(error)) return null;
    throw error;
  }
}

/**
 * billing-receipt: one receipt per paid invoice. A BillingReceipt row is claimed first and marked sent
 * after the SMTP server accepted the mail: a retry or a second invoice.paid finds it sent and skips.
 * Sent by Helix (not Stripe's receipts), so it works the same on stripe-local and on Stripe.
 */
export async function sendInvoiceReceipt(deps: BillingMailDeps, payload: BillingReceiptPayload) {
  const { db } = deps.billing;
  const claimed = await db.billingReceipt.upsert({
    where: { invoiceId: payload.invoiceId },
    update: {},
    create: { invoiceId: payload.invoiceId, tenantId: payload.tenantId },
  });
  if (claimed.sentAt || claimed.tenantId !== payload.tenantId) return { sent: false, reason: 'already sent' };
  const found = await ownerOf(deps, payload.tenantId);
  if (!found) return { sent: false, reason: 'no owner' };
  const invoice = await tenantInvoice(deps, found.tenant.stripeCustomerId, payload.invoiceId);
  if (!invoice || invoice.status !== 'paid' || invoice.amount_paid <= 0)
    return { sent: false, reason: 'not paid' };
  const row = presentInvoiceRow(invoice);
  const mail = renderReceiptMail({
    name: found.owner.name,
    amountPaid: invoice.amount_paid,
    currency: invoice.currency,
    number: invoice.number ?? null,
    paidAt: invoice.status_transitions?.paid_at ?? null,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    description: row.description,
    link:
      invoice.hosted_invoice_url ??
      new URL('/user/settings/subscription', deps.billing.config.PUBLIC_URL).toString(),
  });
  await deps.transport.sendMail({ from: deps.from, to: found.owner.email, ...mail });
  await db.billingReceipt.update({ where: { invoiceId: payload.invoiceId }, data: { sentAt: new Date() } });
  return { sent: true };
}

/**
 * The plan an invoice pays for: its plan line's price (an upgrade waiting for 3-D Secure pays for the
 * new plan, not the one still in force).
 */
async function planPaidBy(deps: BillingMailDeps, invoice: Stripe.Invoice): Promise<string | null> {
  const price = planLineOf(invoice.lines?.data ?? [])?.pricing?.price_details?.price;
  const priceId = typeof price === 'string' ? price : (price?.id ?? null);
  if (!priceId) return null;
  const plan = await deps.billing.db.plan.findFirst({ where: { stripePriceId: priceId } });
  return plan?.name ?? null;
}

/**
 * billing-action-required: asks the owner to complete a payment waiting for 3-D Secure, with the
 * invoice's hosted page. Runs after a delay: a customer who finished the challenge in the card form
 * meanwhile gets nothing (the invoice is paid, or no longer waits for an action).
 */
export async function sendActionRequiredMail(deps: BillingMailDeps, payload: BillingActionRequiredPayload) {
  const found = await ownerOf(deps, payload.tenantId);
  if (!found) return { sent: false, reason: 'no owner' };
  const invoice = await tenantInvoice(deps, found.tenant.stripeCustomerId, payload.invoiceId);
  if (!invoice?.id || invoice.status !== 'open' || !invoice.hosted_invoice_url) {
    return { sent: false, reason: 'nothing to complete' };
  }
  const { paymentIntent } = await invoicePaymentIntent(stripeOf(deps.billing), invoice.id);
  if (paymentIntent?.status !== 'requires_action') return { sent: false, reason: 'no action waiting' };
  const mail = renderActionRequiredMail({
    name: found.owner.name,
    amountDue: invoice.amount_due,
    currency: invoice.currency,
    planName: (await planPaidBy(deps, invoice)) ?? found.tenant.subscription?.plan?.name ?? 'Helix',
    link: invoice.hosted_invoice_url,
  });
  await deps.transport.sendMail({ from: deps.from, to: found.owner.email, ...mail });
  return { sent: true };
}
