import type { Db, Plan } from '../db.ts';
import type { Stripe } from './stripe-client.ts';
import { ENDED_STATUSES, HOLDING_STATUSES } from './stripe-statuses.ts';
import type { Tx } from './tenant-billing.ts';

/**
 * The one place that answers, from what Stripe holds now:
 * - "does this tenant have a live subscription?" (`live`): the newest subscription that holds a plan
 *   (trialing, active, past_due, unpaid, paused). An `incomplete` one is a purchase waiting for its
 *   first payment: it never holds a plan and never ends the live one;
 * - "has it used its trial?" (`trialUsed`): any subscription of the customer ever had a trial;
 * - "what is it paying for?" (`paidOrder`): the live subscription's price and seats, except while a
 *   plan or seat change waits for its payment (then the order paid before the change).
 * Every command, the webhook sync and the reconcile job read the account through here.
 */

export interface BillingAccount {
  customerId: string;
  /** Every subscription of the customer, newest first, with latest_invoice expanded. */
  subscriptions: Stripe.Subscription[];
  /** The subscription the stored state follows: the live one, else the newest that ever held a plan. */
  current: Stripe.Subscription | null;
  /** The live subscription (holds the plan), or null. */
  live: Stripe.Subscription | null;
  /** New subscriptions waiting for their first payment (card form, abandoned or not). */
  awaitingFirstPayment: Stripe.Subscription[];
  trialUsed: boolean;
}

const invoiceOf = (sub: Stripe.Subscription): Stripe.Invoice | null =>
  sub.latest_invoice && typeof sub.latest_invoice === 'object' ? sub.latest_invoice : null;

/** The subscription a purchase replaces (metadata `replaces`, set when it was made). */
export const replacedBy = (sub: Stripe.Subscription): string | null => sub.metadata?.replaces || null;

/**
 * Newest first. Two made within one second tie on `created`: the one that replaces the other is
 * newer.
 */
const newestFirst = (a: Stripe.Subscription, b: Stripe.Subscription) =>
  b.created - a.created || (replacedBy(a) === b.id ? -1 : replacedBy(b) === a.id ? 1 : 0);

/**
 * An attempt that ended without ever being paid (a card form left, superseded or expired): its first
 * invoice was never paid, so it never held a plan. The stored state does not follow it (a tenant that
 * only left a card form is not subscribed, never "deactivated").
 */
export const neverHeldPlan = (sub: Stripe.Subscription): boolean => {
  if (!ENDED_STATUSES.has(sub.status)) return false;
  if (sub.status === 'incomplete_expired') return true;
  const invoice = invoiceOf(sub);
  return invoice?.billing_reason === 'subscription_create' && invoice.status !== 'paid';
};

export function accountOf(customerId: string, subs: Stripe.Subscription[]): BillingAccount {
  const subscriptions = [...subs].sort(newestFirst);
  const live = subscriptions.find((s) => HOLDING_STATUSES.has(s.status)) ?? null;
  return {
    customerId,
    subscriptions,
    live,
    current: live ?? subscriptions.find((s) => !neverHeldPlan(s)) ?? null,
    awaitingFirstPayment: subscriptions.filter((s) => s.status === 'incomplete'),
    trialUsed: subscriptions.some((s) => s.trial_start !== null || s.trial_end !== null),
  };
}

/**
 * Whether the tenant has used its trial: our row says so (a trial card seen, a granted plan), or any
 * subscription of its Stripe customer ever had one. Either is enough: a trial is given once.
 */
export const trialUsed = (
  stored: { isTrialPassed: boolean } | null | undefined,
  account: Pick<BillingAccount, 'trialUsed'> | null | undefined,
): boolean => (stored?.isTrialPassed ?? false) || (account?.trialUsed ?? false);

/** Reads the customer's subscriptions from Stripe (newest first). */
export async function readBillingAccount(stripe: Stripe, customerId: string): Promise<BillingAccount> {
  const subs: Stripe.Subscription[] = [];
  for await (const sub of stripe.subscriptions.list({
    customer: customerId,
    status: 'all',
    limit: 100,
    expand: ['data.latest_invoice'],
  })) {
    subs.push(sub);
  }
  return accountOf(customerId, subs);
}

/**
 * Whether a plan or seat change of the subscription waits for its payment: Stripe's pending_update
 * (Helix makes every change with payment_behavior=pending_if_incomplete). Until it is paid, the tenant
 * keeps what it paid for before. An open invoice alone is not a change waiting: a trial ended now
 * (`trial_end=now`, billing_reason subscription_update) or a change made in the billing portal that
 * was applied and then declined is a payment that failed, and Stripe says so (past_due).
 */
export function changeAwaitingPayment(sub: Stripe.Subscription): boolean {
  return Boolean(sub.pending_update);
}

export const latestInvoiceOf = invoiceOf;

/** The subscription's price and seats (its first item: one plan per subscription). */
export function orderOf(sub: Stripe.Subscription): { priceId: string | null; seats: number } {
  const item = sub.items.data[0];
  return { priceId: item?.price.id ?? null, seats: item?.quantity ?? 1 };
}

/** Which of our plans a subscription is on: its price's planId, else the plan holding the price id. */
export async function planOfSubscription(db: Db | Tx, sub: Stripe.Subscription): Promise<Plan | null> {
  const price = sub.items.data[0]?.price;
  const fromMeta = Number(price?.metadata?.planId ?? sub.metadata?.planId);
  if (Number.isInteger(fromMeta) && fromMeta > 0) {
    const plan = await db.plan.findUnique({ where: { id: fromMeta } });
    if (plan) return plan;
  }
  return price ? db.plan.findFirst({ where: { stripePriceId: price.id } }) : null;
}
