import { planAmountCents } from '@helix/shared/plan-price';
import {
  BILLING_LIMITS,
  type InvoiceListView,
  type SubscriptionSummaryView,
  type UpcomingCharge,
} from '@helix/shared/schemas/billing';
import type { Actor } from '../sessions/session.service.ts';
import {
  changeAwaitingPayment,
  latestInvoiceOf,
  readBillingAccount,
  trialUsed,
  type BillingAccount,
} from './billing-account.query.ts';
import { authorizeBilling, mayManageBilling } from './billing.policy.ts';
import { presentInvoiceRow, presentPaymentAction } from './billing.presenter.ts';
import { tenantUsers } from './change-subscription.command.ts';
import { invoicePaymentIntent } from './invoice-payment.ts';
import { stripeOf, type Stripe } from './stripe-client.ts';
import { subscriptionState } from './subscription-state.ts';
import { storedCustomerId, type BillingDeps } from './tenant-billing.ts';

const unix = (d: Date | null | undefined) => (d ? Math.floor(d.getTime() / 1000) : null);

/** Stripe's answer when a subscription will not invoice again (it ends at its period end). */
const nothingUpcoming = (err: unknown) => (err as { code?: string } | null)?.code === 'invoice_upcoming_none';

/**
 * Credit taken off an invoice: its charges (positive lines) less what is due. Stripe keeps credit as
 * negative lines (proration) or the customer's balance; either way the difference is the credit.
 */
const creditOf = (invoice: Stripe.Invoice): number => {
  const charges = (invoice.lines?.data ?? []).reduce((sum, l) => sum + Math.max(0, l.amount), 0);
  return Math.max(0, charges - invoice.amount_due);
};

/**
 * The next invoice Stripe will make (its upcoming-invoice preview), or null when there is none or the
 * preview cannot be read now.
 */
async function nextChargeOf(deps: BillingDeps, live: Stripe.Subscription): Promise<UpcomingCharge | null> {
  if (live.cancel_at_period_end || live.cancel_at) return null;
  try {
    const preview = await stripeOf(deps).invoices.createPreview({
      customer: typeof live.customer === 'string' ? live.customer : live.customer.id,
      subscription: live.id,
    });
    const date = preview.next_payment_attempt ?? live.items.data[0]?.current_period_end ?? null;
    return {
      date,
      amount: preview.amount_due,
      credit: creditOf(preview),
      currency: preview.currency,
    };
  } catch (err) {
    if (nothingUpcoming(err)) return null;
    // The page still shows the plan, seats and price: only the next-charge line is missing.
    deps.logger?.warn({ err, subscription: live.id }, 'upcoming invoice preview failed');
    return null;
  }
}

/**
 * GET /subscription/summary: plan, seats (the subscription's quantity), price per period, next
 * charge (Stripe's preview), a change waiting for its payment and a payment waiting for the customer.
 * What is "paid for" is the stored state (the sync keeps it to what was paid); Stripe adds the rest.
 */
export async function subscriptionSummary(deps: BillingDeps, actor: Actor): Promise<SubscriptionSummaryView> {
  authorizeBilling(actor, 'view');
  const tenantId = actor.tenant.id;
  const stored = await deps.db.tenantSubscription.findUnique({
    where: { tenantId },
    include: { plan: true },
  });
  const customerId = await storedCustomerId(deps.db, tenantId);
  const account: BillingAccount | null = customerId
    ? await readBillingAccount(stripeOf(deps), customerId).catch((err: unknown) => {
        deps.logger?.warn({ err, tenantId }, 'subscription summary without Stripe');
        return null;
      })
    : null;
  const live = account?.live ?? null;
  const plan = stored?.plan ?? null;
  const state = subscriptionState(stored);
  const seats = plan ? (stored?.userLimit ?? plan.userLimit) : null;
  const price = plan && seats ? planAmountCents(plan, seats) : null;
  const users = await tenantUsers(deps, tenantId);
  const pending = live && changeAwaitingPayment(live) ? live : null;
  // Stripe's pending_update holds the new items.
  const pendingItem = pending?.pending_update?.subscription_items?.[0] ?? null;
  const pendingPlan = pendingItem?.price
    ? await deps.db.plan.findFirst({ where: { stripePriceId: pendingItem.price.id } })
    : null;
  const invoice = live ? latestInvoiceOf(live) : null;
  const open =
    invoice?.status === 'open' && invoice.id ? await invoicePaymentIntent(stripeOf(deps), invoice.id) : null;
  const waiting =
    open &&
    ['requires_action', 'requires_payment_method', 'requires_confirmation'].includes(
      open.paymentIntent?.status ?? '',
    )
      ? presentPaymentAction(open.invoice, open.paymentIntent)
      : null;
  const periodEnd = live?.items.data[0]?.current_period_end ?? unix(stored?.currentPeriodEnd);
  return {
    state: state.kind,
    subscriptionId: live?.id ?? stored?.stripeSubscriptionId ?? null,
    stripeStatus: (live?.status ?? null) as SubscriptionSummaryView['stripeStatus'],
    planId: plan?.id ?? null,
    planName: plan?.name ?? null,
    interval: plan ? (plan.planType === 'YEARLY' ? 'year' : 'month') : null,
    seats,
    minSeats: plan ? Math.max(plan.userLimit, users) : null,
    maxSeats: plan ? (plan.dynamicQuantity ? BILLING_LIMITS.maxQuantity : plan.userLimit) : null,
    seatsAdjustable: plan?.dynamicQuantity ?? false,
    pricePerPeriod: price,
    currency: 'usd',
    trialEnd: unix(stored?.trialEnd),
    cancelAt: unix(stored?.cancelAt),
    currentPeriodEnd: periodEnd ?? null,
    nextCharge: live && state.inForce ? await nextChargeOf(deps, live) : null,
    trialUsed: trialUsed(stored, account),
    pendingChange: pending
      ? {
          planId: pendingPlan?.id ?? null,
          seats: pendingItem?.quantity ?? 1,
        }
      : null,
    paymentAction: waiting,
    canManage: mayManageBilling(actor),
  };
}

/** GET /subscription/invoices: the tenant's invoices, newest first (drafts are not shown). */
export async function listInvoices(
  deps: BillingDeps,
  actor: Actor,
  input: { limit: number; startingAfter?: string },
): Promise<InvoiceListView> {
  authorizeBilling(actor, 'view');
  const customerId = await storedCustomerId(deps.db, actor.tenant.id);
  if (!customerId) return { invoices: [], hasMore: false };
  const stripe = stripeOf(deps);
  const [page, account] = await Promise.all([
    stripe.invoices.list({
      customer: customerId,
      limit: input.limit,
      ...(input.startingAfter ? { starting_after: input.startingAfter } : {}),
    }),
    readBillingAccount(stripe, customerId),
  ]);
  return {
    invoices: page.data.filter((i) => i.status !== 'draft').map((i) => presentInvoiceRow(i, account.live)),
    hasMore: page.has_more,
  };
}
