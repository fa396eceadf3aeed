import { JOBS } from '@helix/shared';
import { VIEWS_PER_BLOCK } from '@helix/shared/schemas/billing';
import type { ServerDeps } from '../deps.ts';
import { uniqueViolation } from '../prisma-errors.ts';
import { stripeOf, type Stripe } from './stripe-client.ts';
import { syncTenantSubscription } from './sync-subscription.command.ts';
import { withTenantBillingLock, type BillingDeps, type Tx } from './tenant-billing.ts';

/** The events that change a tenant's billing; any other type is acknowledged and recorded. */
export const HANDLED_STRIPE_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.trial_will_end',
  'invoice.paid',
  'invoice.payment_failed',
]);

export interface ApplyResult {
  outcome: 'applied' | 'duplicate' | 'ignored';
  tenantId: number | null;
}

type Deps = BillingDeps & Pick<ServerDeps, 'queue'>;

/**
 * Per tenant, when the last committed sync of this process began reading Stripe (ms). An event that
 * arrived before that moment is already reflected in the stored state: it is only recorded.
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

async function record(tx: Tx, event: Stripe.Event) {
  await tx.processedStripeEvent.create({ data: { id: event.id, type: event.type } });
}

/**
 * A view pack, once: re-reads the Checkout session; when Stripe says it is paid, the purchase is
 * stored under its session id (unique) and the tenant's views for the period go up by the blocks
 * bought. A second delivery, or the completed and async-succeeded events of one session, find the
 * purchase and add nothing.
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

/**
 * A verified Stripe event, applied at most once: the event id is recorded in the same transaction as
 * its effects (a second delivery is a no-op), under the tenant's billing lock. Nothing but ids is
 * taken from the payload: the subscription (or Checkout session) is re-read from Stripe and the
 * stored state converges on it, so events in any order end in the same state. E-mails (payment
 * failed, trial ending) are queued after the commit, one per event.
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
  try {
    if (!tenant || !HANDLED_STRIPE_EVENTS.has(event.type)) {
      await db.processedStripeEvent.create({ data: { id: event.id, type: event.type } });
      return { outcome: 'ignored', tenantId: tenant?.id ?? null };
    }
    const outcome = await withTenantBillingLock(db, tenant.id, async (tx) => {
      if (await tx.processedStripeEvent.findUnique({ where: { id: event.id } })) return 'duplicate' as const;
      const stripe = stripeOf(deps);
      let sendMail: 'payment-failed' | 'trial-ending' | null = null;
      const needsOwnRead =
        event.type.startsWith('checkout.session.') ||
        event.type === 'invoice.payment_failed' ||
        event.type === 'customer.subscription.trial_will_end';
      if (!needsOwnRead && (syncedFrom.get(tenant.id) ?? 0) >= receivedAt) {
        // A sync that began reading Stripe after this event arrived has stored its effects already.
        await record(tx, event);
        return null;
      }
      let syncStartedAt: number | null = Date.now();
      if (event.type.startsWith('checkout.session.')) {
        const session = await stripe.checkout.sessions.retrieve(idOf(event.data.object)!);
        if (session.mode === 'payment' && session.metadata?.kind === 'views') {
          syncStartedAt = null;
          await applyViewsPurchase(tx, tenant.id, session);
        } else {
          await syncTenantSubscription(deps, tx, tenant.id);
        }
      } else {
        await syncTenantSubscription(deps, tx, tenant.id);
      }
      if (event.type === 'invoice.payment_failed') {
        const invoice = await stripe.invoices.retrieve(idOf(event.data.object)!);
        if (invoice.status === 'open') sendMail = 'payment-failed';
      }
      if (event.type === 'customer.subscription.trial_will_end') {
        const sub = await stripe.subscriptions.retrieve(idOf(event.data.object)!);
        if (sub.status === 'trialing') sendMail = 'trial-ending';
      }
      await record(tx, event);
      return { sendMail, syncStartedAt };
    });
    if (outcome === 'duplicate') return { outcome: 'duplicate', tenantId: tenant.id };
    const mail = outcome?.sendMail ?? null;
    if (outcome?.syncStartedAt) {
      syncedFrom.set(tenant.id, Math.max(syncedFrom.get(tenant.id) ?? 0, outcome.syncStartedAt));
    }
    if (mail) {
      await deps.queue
        .enqueue(
          JOBS.billingEmail,
          { kind: mail, tenantId: tenant.id, eventId: event.id },
          `billing-email-${event.id}`,
        )
        .catch((err: unknown) => deps.logger?.error({ err, event: event.id }, 'billing e-mail not queued'));
    }
    return { outcome: 'applied', tenantId: tenant.id };
  } catch (error) {
    // The same event delivered twice at once: the other delivery recorded it.
    if (uniqueViolation(error)) return { outcome: 'duplicate', tenantId: tenant?.id ?? null };
    throw error;
  }
}
