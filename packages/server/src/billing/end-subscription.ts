import type { Logger } from 'pino';
import { latestInvoiceOf, type BillingAccount } from './billing-account.query.ts';
import type { Stripe } from './stripe-client.ts';
import { ENDED_STATUSES, LIVE_STRIPE_STATUSES, PAID_OR_TRIALING } from './stripe-statuses.ts';

/**
 * "A tenant pays for each period at most once": when a subscription ends for any reason (cancelled
 * now, Stripe gave up retrying, replaced by a paid one), its open invoices are voided, or marked
 * uncollectible where Stripe refuses to void, so no later card update or portal visit collects them.
 */

const subscriptionOfInvoice = (invoice: Stripe.Invoice): string | null => {
  const sub = invoice.parent?.subscription_details?.subscription;
  return sub ? (typeof sub === 'string' ? sub : sub.id) : null;
};

/** Voids one open invoice (uncollectible when Stripe refuses to void it). */
export async function closeOpenInvoice(stripe: Stripe, invoiceId: string, logger?: Logger): Promise<boolean> {
  try {
    await stripe.invoices.voidInvoice(invoiceId, {}, { idempotencyKey: `helix-void-${invoiceId}` });
    return true;
  } catch (voidError) {
    try {
      await stripe.invoices.markUncollectible(
        invoiceId,
        {},
        { idempotencyKey: `helix-uncollectible-${invoiceId}` },
      );
      return true;
    } catch (error) {
      logger?.error(
        { err: error, voidError, invoice: invoiceId },
        'open invoice of an ended subscription not closed',
      );
      return false;
    }
  }
}

/** Closes the open invoices of the given subscriptions. Answers how many were closed. */
export async function closeOpenInvoicesOf(
  stripe: Stripe,
  customerId: string,
  subscriptionIds: ReadonlySet<string>,
  logger?: Logger,
): Promise<number> {
  if (subscriptionIds.size === 0) return 0;
  let closed = 0;
  for await (const invoice of stripe.invoices.list({ customer: customerId, status: 'open', limit: 100 })) {
    const sub = subscriptionOfInvoice(invoice);
    if (
      invoice.id &&
      sub &&
      subscriptionIds.has(sub) &&
      (await closeOpenInvoice(stripe, invoice.id, logger))
    ) {
      closed += 1;
    }
  }
  return closed;
}

/** Ends a subscription now (prorated credit, no new invoice) and closes its open invoices. */
export async function endSubscriptionNow(
  stripe: Stripe,
  sub: Stripe.Subscription,
  logger?: Logger,
): Promise<Stripe.Subscription> {
  const ended = ENDED_STATUSES.has(sub.status)
    ? sub
    : await stripe.subscriptions.cancel(
        sub.id,
        { prorate: true },
        { idempotencyKey: `helix-cancel-${sub.id}` },
      );
  const customerId = typeof sub.customer === 'string' ? sub.customer : sub.customer.id;
  await closeOpenInvoicesOf(stripe, customerId, new Set([sub.id]), logger);
  return ended;
}

/** How long a card form's attempt (or a plan change waiting for its payment) may wait to be paid. */
export interface SettleOptions {
  /** Seconds after which an unpaid attempt counts as abandoned (config BILLING_ATTEMPT_TTL_MS). */
  attemptTtlSeconds?: number;
  /** Unix seconds now (tests). */
  now?: number;
}

const DEFAULT_ATTEMPT_TTL_SECONDS = 60 * 60;

/**
 * Converges the account on the money rules (the sync runs it before storing):
 * - a replacement that is paid for or trialing ends every older subscription still holding a plan
 *   (or still waiting for its first payment);
 * - an attempt (an `incomplete` subscription waiting for its first payment) is ended, and its invoice
 *   voided, once a newer attempt supersedes it, or once it has waited longer than the attempt time:
 *   a card form that was left can never be paid later (nor replace a plan in force);
 * - a plan change waiting for its payment (pending_update) that has waited longer than the attempt
 *   time is dropped (its invoice voided, so Stripe discards the change);
 * - every ended subscription's open invoices are closed (Stripe leaves them open when its retries run
 *   out, and a cancel does not close them).
 * Answers whether anything changed in Stripe (the caller then reads the account again).
 */
export async function settleAccount(
  stripe: Stripe,
  account: BillingAccount,
  logger?: Logger,
  opts: SettleOptions = {},
): Promise<boolean> {
  let changed = false;
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  const ttl = opts.attemptTtlSeconds ?? DEFAULT_ATTEMPT_TTL_SECONDS;
  const replacement = account.subscriptions.find((s) => PAID_OR_TRIALING.has(s.status));
  const endedIds = new Set(
    account.subscriptions.filter((s) => ENDED_STATUSES.has(s.status)).map((s) => s.id),
  );
  const cancel = async (sub: Stripe.Subscription) => {
    await stripe.subscriptions.cancel(
      sub.id,
      { prorate: true },
      { idempotencyKey: `helix-cancel-${sub.id}` },
    );
    endedIds.add(sub.id);
    changed = true;
  };
  if (replacement) {
    // Everything older than the replacement (newest first; within one second, what it replaces).
    const older = account.subscriptions.slice(account.subscriptions.indexOf(replacement) + 1);
    for (const sub of older) {
      // An older purchase still waiting for its first payment goes too: it must not be paid later.
      if (!LIVE_STRIPE_STATUSES.has(sub.status)) continue;
      await cancel(sub);
    }
  }
  const attempts = account.subscriptions.filter((s) => s.status === 'incomplete' && !endedIds.has(s.id));
  for (const [index, sub] of attempts.entries()) {
    const superseded = index > 0;
    const abandoned = now - sub.created > ttl;
    if (superseded || abandoned) await cancel(sub);
  }
  const live = account.live;
  const held = live?.pending_update ? latestInvoiceOf(live) : null;
  if (held?.id && held.status === 'open' && now - held.created > ttl) {
    if (await closeOpenInvoice(stripe, held.id, logger)) changed = true;
  }
  const open = account.subscriptions.some(
    (s) =>
      endedIds.has(s.id) &&
      s.latest_invoice &&
      typeof s.latest_invoice === 'object' &&
      s.latest_invoice.status === 'open',
  );
  // Only the latest invoice is expanded; an ended subscription with an older open one is rare, but
  // the list is read whenever an ended subscription exists that was just ended or shows an open one.
  if (open || changed) {
    if ((await closeOpenInvoicesOf(stripe, account.customerId, endedIds, logger)) > 0) changed = true;
  }
  return changed;
}
