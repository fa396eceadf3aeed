import { VIEWS_PER_BLOCK } from '@helix/shared/schemas/billing';
import {
  changeAwaitingPayment,
  latestInvoiceOf,
  planOfSubscription,
  readBillingAccount,
  trialUsed,
  type BillingAccount,
} from './billing-account.query.ts';
import { settleAccount } from './end-subscription.ts';
import { invoicePaymentIntent } from './invoice-payment.ts';
import { storedFromStripe } from './subscription-state.ts';
import { stripeOf, type Stripe } from './stripe-client.ts';
import {
  serialiseTenantBilling,
  storeBilling,
  storedCustomerId,
  stripeObjectMissing,
  type BillingDeps,
} from './tenant-billing.ts';

export interface SyncResult {
  tenantId: number;
  subscriptionId: string | null;
  status: string;
  changed: boolean;
  /** The stored customer id is unknown to Stripe (deleted, or a fresh Stripe server). */
  customerMissing?: boolean;
}

/**
 * Whether the latest invoice's failure is a "payment failed" of a plan in force: a renewal or a trial
 * conversion (or a change made outside Helix's own forms) whose charge was tried and declined. The
 * first invoice of a new subscription and a change answered in Helix's card form are not: their
 * decline is shown in the form. A payment waiting for 3-D Secure is an action, not a failure.
 */
export function paymentFailedOf(
  invoice: Stripe.Invoice | null,
  formInvoiceId: string | null,
  intent: Stripe.PaymentIntent | null,
): boolean {
  if (!invoice || invoice.status !== 'open') return false;
  if (!invoice.attempted || (invoice.attempt_count ?? 0) === 0) return false;
  if (invoice.billing_reason === 'subscription_create' || invoice.id === formInvoiceId) return false;
  return intent?.status !== 'requires_action';
}

/**
 * Trial ends when the plan is changed (accounts 4): a trialing subscription whose price is no longer
 * the one it started its trial on (a change made in the billing portal) gets trial_end now.
 */
async function endTrialOnChangedPrice(stripe: Stripe, sub: Stripe.Subscription): Promise<boolean> {
  if (sub.status !== 'trialing') return false;
  const started = sub.metadata?.trialPriceId;
  const price = sub.items.data[0]?.price.id;
  if (!started || !price || started === price) return false;
  await stripe.subscriptions.update(
    sub.id,
    { trial_end: 'now', proration_behavior: 'none' },
    { idempotencyKey: `helix-end-trial-${sub.id}-${price}` },
  );
  return true;
}

/**
 * Converges the tenant's stored subscription on Stripe (Documenso's shape: read Stripe, then one
 * short transaction): reads the account, settles it on the money rules (a paid replacement ends the
 * older plan; ended subscriptions' open invoices are closed), then stores the live subscription's
 * state. What the tenant pays for stays as it was while a change waits for its payment. A stored row
 * written from a later Stripe read is never overwritten by an earlier one (stripeReadAt).
 */
export async function syncTenantSubscription(deps: BillingDeps, tenantId: number): Promise<SyncResult> {
  return serialiseTenantBilling(tenantId, () => syncUnserialised(deps, tenantId));
}

/** The sync for a caller already inside serialiseTenantBilling for this tenant. */
export async function syncUnserialised(deps: BillingDeps, tenantId: number): Promise<SyncResult> {
  const { db } = deps;
  const customerId = await storedCustomerId(db, tenantId);
  const stored = await db.tenantSubscription.findUnique({ where: { tenantId } });
  if (!customerId) {
    return { tenantId, subscriptionId: null, status: stored?.status ?? 'none', changed: false };
  }
  const stripe = stripeOf(deps);
  let readAt = new Date();
  let account: BillingAccount;
  try {
    await stripe.customers.retrieve(customerId).then((c) => {
      if ('deleted' in c && c.deleted)
        throw Object.assign(new Error('deleted customer'), { statusCode: 404 });
    });
    account = await readBillingAccount(stripe, customerId);
    const first = account.current;
    if (
      (first && (await endTrialOnChangedPrice(stripe, first))) ||
      (await settleAccount(stripe, account, deps.logger, {
        attemptTtlSeconds: Math.floor(deps.config.BILLING_ATTEMPT_TTL_MS / 1000),
      }))
    ) {
      readAt = new Date();
      account = await readBillingAccount(stripe, customerId);
    }
  } catch (error) {
    if (!stripeObjectMissing(error)) throw error;
    return {
      tenantId,
      subscriptionId: null,
      status: stored?.status ?? 'none',
      changed: false,
      customerMissing: true,
    };
  }
  const current = account.current;
  const invoice = current ? latestInvoiceOf(current) : null;
  const open =
    invoice?.status === 'open' && invoice.id ? await invoicePaymentIntent(stripe, invoice.id) : null;
  const intent = open?.paymentIntent ?? null;
  const plan = current ? await planOfSubscription(db, current) : null;

  return storeBilling(db, tenantId, async (tx) => {
    const row = await tx.tenantSubscription.findUnique({ where: { tenantId } });
    if (row?.stripeReadAt && row.stripeReadAt > readAt) {
      // Another sync read Stripe later and stored already: this read is older news.
      return { tenantId, subscriptionId: row.stripeSubscriptionId, status: row.status, changed: false };
    }
    if (!current) {
      const data = {
        status: 'none' as const,
        activePayment: false,
        stripeSubscriptionId: null,
        isTrialPassed: trialUsed(row, account),
        paymentActionInvoiceId: null,
        paymentActionUrl: null,
        stripeReadAt: readAt,
      };
      await tx.tenantSubscription.upsert({
        where: { tenantId },
        update: data,
        create: { tenantId, ...data },
      });
      return { tenantId, subscriptionId: null, status: 'none', changed: row?.status !== 'none' };
    }
    const formInvoiceId = invoice?.status === 'open' ? (row?.changeInvoiceId ?? null) : null;
    const action = intent?.status === 'requires_action' && invoice?.id ? invoice : null;
    const actionData = {
      paymentActionInvoiceId: action?.id ?? null,
      paymentActionUrl: action?.hosted_invoice_url ?? null,
      changeInvoiceId: formInvoiceId,
      stripeReadAt: readAt,
    };
    // A change waiting for its payment: what was paid for before it stays in force, as stored
    // (Stripe keeps the subscription as it was until the pending update is paid).
    if (row && changeAwaitingPayment(current) && row.stripeSubscriptionId === current.id) {
      await tx.tenantSubscription.update({ where: { tenantId }, data: actionData });
      return { tenantId, subscriptionId: current.id, status: row.status, changed: false };
    }
    const next = storedFromStripe(current, paymentFailedOf(invoice, formInvoiceId, intent));
    const periodChanged = row?.currentPeriodStart?.getTime() !== next.currentPeriodStart?.getTime();
    let additionalViews = row?.additionalViews ?? 0;
    if (periodChanged && next.currentPeriodStart) {
      const bought = await tx.additionalViewPurchase.aggregate({
        where: {
          tenantId,
          createdAt: {
            gte: next.currentPeriodStart,
            ...(next.currentPeriodEnd ? { lt: next.currentPeriodEnd } : {}),
          },
        },
        _sum: { quantity: true },
      });
      additionalViews = (bought._sum.quantity ?? 0) * VIEWS_PER_BLOCK;
    }
    const data = {
      planId: plan?.id ?? row?.planId ?? null,
      stripeSubscriptionId: current.id,
      status: next.status,
      activePayment: next.activePayment,
      isTrialPassed: trialUsed(row, account),
      trialEnd: next.trialEnd,
      cancelAt: next.cancelAt,
      canceledAt: next.canceledAt,
      currentPeriodStart: next.currentPeriodStart,
      currentPeriodEnd: next.currentPeriodEnd,
      userLimit: next.userLimit,
      additionalViews,
      ...actionData,
    };
    const changed =
      !row ||
      row.status !== data.status ||
      row.activePayment !== data.activePayment ||
      row.stripeSubscriptionId !== data.stripeSubscriptionId ||
      row.planId !== data.planId ||
      row.userLimit !== data.userLimit;
    await tx.tenantSubscription.upsert({ where: { tenantId }, update: data, create: { tenantId, ...data } });
    return { tenantId, subscriptionId: current.id, status: data.status, changed };
  });
}
