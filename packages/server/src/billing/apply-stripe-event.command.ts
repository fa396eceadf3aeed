import { z } from 'zod';
import { JOBS } from '@helix/shared';
import { VIEWS_PER_BLOCK } from '@helix/shared/schemas/billing';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { uniqueViolation } from '../prisma-errors.ts';
import { stripeOf, type Stripe } from './stripe-client.ts';
import { syncUnserialised } from './sync-subscription.command.ts';
import { invoicePaymentIntent } from './invoice-payment.ts';
import { checkTrialCard } from './trial-card.ts';
import { BILLED_STATUSES } from './stripe-statuses.ts';
import {
  serialiseTenantBilling,
  storeBilling,
  stripeObjectMissing,
  type BillingDeps,
  type Tx,
} from './tenant-billing.ts';

/** The events that change a tenant's billing; any other type is acknowledged and recorded. */
export const HANDLED_STRIPE_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.trial_will_end',
  // A plan or seat change waiting for its payment was applied (paid) or dropped (expired, voided).
  'customer.subscription.pending_update_applied',
  'customer.subscription.pending_update_expired',
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.payment_action_required',
]);

/**
 * What a verified event must look like before anything reads it: an id, a type and a data object with
 * an id. Stripe always sends this; a signed body without it (`{}`, `null`, `{"id":123}`) is a 400.
 */
export const StripeEventEnvelope = z.looseObject({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.looseObject({
    object: z.looseObject({ id: z.string().min(1).max(255).optional(), object: z.string().optional() }),
  }),
});

export function parseStripeEvent(value: unknown): Stripe.Event {
  const parsed = StripeEventEnvelope.safeParse(value);
  if (!parsed.success) throw AppError.badRequest('This is not a Stripe event.');
  return value as Stripe.Event;
}

export interface ApplyResult {
  outcome: 'applied' | 'duplicate' | 'ignored';
  tenantId: number | null;
}

type Deps = BillingDeps & Pick<ServerDeps, 'queue'>;

/**
 * Per tenant, when the last sync of this process began reading Stripe (ms). An event that arrived
 * before that moment is already reflected in the stored state: it is only recorded.
 */
const syncedFrom = new Map<number, number>();

const idOf = (value: unknown): string | null =>
  typeof value === 'string'
    ? value
    : value && typeof value === 'object' && 'id' in value
      ? String(value.id)
      : null;

/** The customer the event is about (the only thing taken from the payload, besides object ids). */
function customerOf(event: Stripe.Event): string | null {
  const object = event.data.object as { object?: string; id?: string; customer?: unknown };
  if (object.object === 'customer') return object.id ?? null;
  return idOf(object.customer);
}

async function record(db: BillingDeps['db'], event: Stripe.Event): Promise<'recorded' | 'duplicate'> {
  try {
    await db.processedStripeEvent.create({ data: { id: event.id, type: event.type } });
    return 'recorded';
  } catch (error) {
    if (uniqueViolation(error)) return 'duplicate';
    throw error;
  }
}

/** Reads a Stripe object named by the event; null when Stripe does not know it (recorded, 200). */
async function readOrNull<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    if (stripeObjectMissing(error)) return null;
    throw error;
  }
}

/**
 * A view pack, once: when Stripe says the Checkout session is paid, the purchase is stored under its
 * session id (unique) and the tenant's views for the period go up by the blocks bought.
 */
async function applyViewsPurchase(tx: Tx, tenantId: number, session: Stripe.Checkout.Session) {
  if (session.payment_status !== 'paid') return;
  const blocks = Number(session.metadata?.blocks);
  if (!Number.isInteger(blocks) || blocks < 1) return;
  const existing = await tx.additionalViewPurchase.findUnique({ where: { stripeSessionId: session.id } });
  if (existing) return;
  await tx.additionalViewPurchase.create({
    data: { tenantId, quantity: blocks, stripeSessionId: session.id },
  });
  await tx.tenantSubscription.update({
    where: { tenantId },
    data: { additionalViews: { increment: blocks * VIEWS_PER_BLOCK } },
  });
}

interface Effects {
  mail?: 'payment-failed' | 'trial-ending';
  receiptInvoiceId?: string;
  actionInvoiceId?: string;
}

/**
 * A new plan's first invoice paid with a card (the card form, Checkout): that card becomes the
 * customer's default, so the billing portal and later invoices show the card that pays, not a card
 * that failed before (Stripe saves it on the subscription only: save_default_payment_method).
 */
async function adoptPayingCard(deps: Deps, invoice: Stripe.Invoice): Promise<void> {
  if (invoice.billing_reason !== 'subscription_create' || invoice.amount_paid <= 0 || !invoice.id) return;
  const customerId = idOf(invoice.customer);
  const { paymentIntent } = await invoicePaymentIntent(stripeOf(deps), invoice.id);
  const pm = idOf(paymentIntent?.payment_method);
  if (!customerId || !pm || paymentIntent?.status !== 'succeeded') return;
  const stripe = stripeOf(deps);
  const customer = await readOrNull(() => stripe.customers.retrieve(customerId));
  if (!customer || ('deleted' in customer && customer.deleted)) return;
  if (idOf((customer as Stripe.Customer).invoice_settings?.default_payment_method) === pm) return;
  await stripe.customers.update(
    customerId,
    { invoice_settings: { default_payment_method: pm } },
    { idempotencyKey: `helix-default-pm-${invoice.id}` },
  );
}

/** What an invoice event asks of us after the sync: a receipt, a failure mail, an action mail. */
async function invoiceEffects(deps: Deps, tenantId: number, event: Stripe.Event): Promise<Effects> {
  const stripe = stripeOf(deps);
  const invoice = await readOrNull(() => stripe.invoices.retrieve(idOf(event.data.object)!));
  if (!invoice?.id) return {};
  if (event.type === 'invoice.paid') {
    if (invoice.status !== 'paid' || invoice.amount_paid <= 0) return {};
    await adoptPayingCard(deps, invoice);
    return { receiptInvoiceId: invoice.id };
  }
  if (invoice.status !== 'open') return {};
  const reason = invoice.billing_reason;
  // The first invoice of a purchase is paid in the card form: its troubles are shown there.
  if (reason === 'subscription_create' || reason === 'manual') return {};
  const row = await deps.db.tenantSubscription.findUnique({ where: { tenantId } });
  const subId = idOf(invoice.parent?.subscription_details?.subscription);
  const sub = subId ? await readOrNull(() => stripe.subscriptions.retrieve(subId)) : null;
  if (event.type === 'invoice.payment_action_required') return { actionInvoiceId: invoice.id };
  // A change answered in Helix's own form (pending update, or the invoice the form was given).
  if (reason === 'subscription_update' && (sub?.pending_update || row?.changeInvoiceId === invoice.id))
    return {};
  // Only a plan that was in force can "fail": a renewal, a trial conversion, a seat change's invoice.
  if (!sub || !BILLED_STATUSES.has(sub.status)) return {};
  return { mail: 'payment-failed' };
}

async function enqueueEffects(deps: Deps, tenantId: number, event: Stripe.Event, effects: Effects) {
  const log = (err: unknown) => deps.logger?.error({ err, event: event.id }, 'billing job not queued');
  if (effects.mail) {
    await deps.queue
      .enqueue(
        JOBS.billingEmail,
        { kind: effects.mail, tenantId, eventId: event.id },
        `billing-email-${event.id}`,
      )
      .catch(log);
  }
  if (effects.receiptInvoiceId) {
    await deps.queue
      .enqueue(
        JOBS.billingReceipt,
        { tenantId, invoiceId: effects.receiptInvoiceId },
        `billing-receipt-${effects.receiptInvoiceId}`,
      )
      .catch(log);
  }
  if (effects.actionInvoiceId) {
    await deps.queue
      .enqueue(
        JOBS.billingActionRequired,
        { tenantId, invoiceId: effects.actionInvoiceId },
        `billing-action-${effects.actionInvoiceId}`,
        { delayMs: deps.config.BILLING_ACTION_MAIL_DELAY_MS },
      )
      .catch(log);
  }
}

/**
 * A verified Stripe event, applied at most once. Nothing but ids is taken from the payload: the
 * account is re-read from Stripe (outside any transaction) and the stored state converges on it in a
 * short transaction, so events in any order end in the same state; the event id is recorded after its
 * effects (a redelivery before that re-applies them harmlessly; jobs carry per-event or per-invoice
 * ids). Unknown customers, types and objects are recorded and answered 200 (Stripe must not retry
 * them for days).
 */
export async function applyStripeEvent(deps: Deps, event: Stripe.Event): Promise<ApplyResult> {
  const { db } = deps;
  const receivedAt = Date.now();
  if (await db.processedStripeEvent.findUnique({ where: { id: event.id } })) {
    return { outcome: 'duplicate', tenantId: null };
  }
  const customerId = customerOf(event);
  const tenant = customerId
    ? await db.tenant.findUnique({ where: { stripeCustomerId: customerId }, select: { id: true } })
    : null;
  if (!tenant || !HANDLED_STRIPE_EVENTS.has(event.type)) {
    const done = await record(db, event);
    return { outcome: done === 'duplicate' ? 'duplicate' : 'ignored', tenantId: tenant?.id ?? null };
  }
  const tenantId = tenant.id;
  return serialiseTenantBilling(tenantId, async (): Promise<ApplyResult> => {
    if (await db.processedStripeEvent.findUnique({ where: { id: event.id } })) {
      return { outcome: 'duplicate', tenantId };
    }
    const stripe = stripeOf(deps);
    if (event.type.startsWith('checkout.session.')) {
      const session = await readOrNull(() => stripe.checkout.sessions.retrieve(idOf(event.data.object)!));
      if (!session) {
        await record(db, event);
        return { outcome: 'ignored', tenantId };
      }
      if (session.mode === 'payment' && session.metadata?.kind === 'views') {
        await storeBilling(db, tenantId, async (tx) => {
          await applyViewsPurchase(tx, tenantId, session);
          await tx.processedStripeEvent.create({ data: { id: event.id, type: event.type } });
        }).catch((error: unknown) => {
          if (!uniqueViolation(error)) throw error;
        });
        return { outcome: 'applied', tenantId };
      }
    }
    const ownRead =
      event.type.startsWith('invoice.') ||
      event.type.startsWith('checkout.session.') ||
      event.type === 'customer.subscription.trial_will_end' ||
      event.type === 'customer.subscription.created';
    if (ownRead || (syncedFrom.get(tenantId) ?? 0) < receivedAt) {
      const startedAt = Date.now();
      await syncUnserialised(deps, tenantId);
      syncedFrom.set(tenantId, Math.max(syncedFrom.get(tenantId) ?? 0, startedAt));
    }
    let effects: Effects = {};
    if (event.type.startsWith('invoice.')) effects = await invoiceEffects(deps, tenantId, event);
    if (event.type === 'customer.subscription.trial_will_end') {
      const sub = await readOrNull(() => stripe.subscriptions.retrieve(idOf(event.data.object)!));
      if (sub?.status === 'trialing') effects = { mail: 'trial-ending' };
    }
    if (event.type === 'customer.subscription.created') {
      // A trial made outside the card form (hosted Checkout): one trial per card, on any tenant.
      const sub = await readOrNull(() => stripe.subscriptions.retrieve(idOf(event.data.object)!));
      if (sub && (await checkTrialCard(deps, tenantId, sub)) === 'ended')
        await syncUnserialised(deps, tenantId);
    }
    await enqueueEffects(deps, tenantId, event, effects);
    const done = await record(db, event);
    return { outcome: done === 'duplicate' ? 'duplicate' : 'applied', tenantId };
  });
}
