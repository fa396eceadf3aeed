import type { Context } from '../core/context.ts';
import { invalidRequest } from '../core/errors.ts';
import { changedFields, emit } from '../core/events.ts';
import type { SubscriptionRecord } from '../core/records.ts';
import { renderSubscription } from '../core/render.ts';
import {
  attemptInvoice,
  createInvoice,
  finalizeInvoice,
  invoicePaymentMethod,
  voidInvoice,
} from './invoices.ts';
import { throwIfFailed } from './payment-intents.ts';
import { discardPendingUpdate, pendingExpiry } from './pending-update.ts';
import { applyChanges, planBilling, type UpdateSubscriptionInput } from './subscription-change.ts';
import type { PaymentBehavior } from './subscription-helpers.ts';

export type { UpdateItemInput, UpdateSubscriptionInput } from './subscription-change.ts';

export function updateSubscription(
  ctx: Context,
  sub: SubscriptionRecord,
  input: UpdateSubscriptionInput,
): void {
  const now = ctx.nowFor(sub.testClock);
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired') {
    const allowed = Object.entries(input).every(
      ([k, v]) => v === undefined || k === 'metadata' || k === 'cancellationDetails',
    );
    if (!allowed)
      throw invalidRequest(
        'A canceled subscription can only update its cancellation_details and metadata.',
        {},
      );
  }
  if (input.defaultPaymentMethod) {
    const pm = ctx.store.paymentMethods.get(input.defaultPaymentMethod, 'default_payment_method');
    if (pm.customer !== sub.customer)
      throw invalidRequest(
        `The customer does not have a payment method with the ID ${pm.id}. The payment method must be attached to the customer.`,
        { param: 'default_payment_method' },
      );
  }
  for (const [i, id] of (input.coupons ?? []).entries()) ctx.store.coupons.get(id, `discounts[${i}][coupon]`);
  const behaviour = input.prorationBehavior ?? 'create_prorations';

  if (input.paymentBehavior === 'pending_if_incomplete') {
    // Worked out on a copy: only an update that makes an invoice now is held until it is paid.
    const draft = structuredClone(sub);
    const change = applyChanges(ctx, draft, input, now);
    const bill = planBilling(ctx, draft, change, behaviour, now, input.prorationDate);
    if (bill) return holdUntilPaid(ctx, sub, draft, bill);
  }

  const before = renderSubscription(ctx, sub);
  const change = applyChanges(ctx, sub, input, now);
  const bill = planBilling(ctx, sub, change, behaviour, now, input.prorationDate);
  // A change of items made otherwise replaces a change still waiting for its payment.
  if (change.itemsChanged && sub.pendingUpdate) dropPending(ctx, sub);
  const previous = changedFields(before, renderSubscription(ctx, sub));
  if (Object.keys(previous).length) emit(ctx, 'customer.subscription.updated', sub.id, { previous });
  if (!bill) return;
  const inv = createInvoice(ctx, sub, 'subscription_update', bill.lines, bill.period);
  finalizeInvoice(ctx, inv);
  if (inv.status === 'open' && inv.total > 0) collectOnUpdate(ctx, inv.id, input.paymentBehavior);
}

/** Voids the invoice of the change waiting for its payment (Stripe then discards that change). */
function dropPending(ctx: Context, sub: SubscriptionRecord): void {
  const inv = sub.pendingUpdate ? ctx.store.invoices.find(sub.pendingUpdate.invoice) : undefined;
  if (inv && (inv.status === 'open' || inv.status === 'uncollectible')) voidInvoice(ctx, inv);
  discardPendingUpdate(ctx, sub);
}

/**
 * payment_behavior=pending_if_incomplete: the invoice of the change is made and paid on-session; paid,
 * the change applies at once; otherwise the subscription keeps what it had and shows the change in
 * `pending_update` until the invoice is paid (3-D Secure, invoices.pay, the hosted page) or it expires.
 * A newer pending change replaces an older one (its invoice voided).
 */
function holdUntilPaid(
  ctx: Context,
  sub: SubscriptionRecord,
  draft: SubscriptionRecord,
  bill: NonNullable<ReturnType<typeof planBilling>>,
): void {
  const now = ctx.nowFor(sub.testClock);
  const before = renderSubscription(ctx, sub);
  if (sub.pendingUpdate) dropPending(ctx, sub);
  // The pending prorations go on this invoice (as Stripe's pending invoice items would).
  sub.pendingLines = draft.pendingLines;
  const inv = createInvoice(ctx, sub, 'subscription_update', bill.lines, bill.period);
  sub.pendingUpdate = {
    invoice: inv.id,
    expiresAt: pendingExpiry(sub, now),
    state: 'attempting',
    shown: {
      trialEnd: draft.trialEnd !== sub.trialEnd ? draft.trialEnd : null,
      billingCycleAnchor:
        draft.billingCycleAnchor !== sub.billingCycleAnchor ? draft.billingCycleAnchor : null,
      metadata: JSON.stringify(draft.metadata) !== JSON.stringify(sub.metadata) ? draft.metadata : null,
    },
    apply: {
      items: draft.items,
      status: draft.status,
      trialEnd: draft.trialEnd,
      billingCycleAnchor: draft.billingCycleAnchor,
      periodStart: draft.periodStart,
      periodEnd: draft.periodEnd,
      cancelAt: draft.cancelAt,
      metadata: draft.metadata,
    },
  };
  finalizeInvoice(ctx, inv); // nothing due: paid at once, and the change applies
  if (inv.status === 'open' && invoicePaymentMethod(ctx, inv))
    attemptInvoice(ctx, inv, { offSession: false });
  if (sub.pendingUpdate) sub.pendingUpdate.state = 'pending';
  const previous = changedFields(before, renderSubscription(ctx, sub));
  if (Object.keys(previous).length) emit(ctx, 'customer.subscription.updated', sub.id, { previous });
}

function collectOnUpdate(ctx: Context, invoiceId: string, behaviour?: PaymentBehavior): void {
  const inv = ctx.store.invoices.get(invoiceId);
  if (behaviour === 'default_incomplete') return;
  if (!invoicePaymentMethod(ctx, inv)) return;
  const outcome = attemptInvoice(ctx, inv, { offSession: false });
  if (outcome === 'failed' && behaviour === 'error_if_incomplete')
    throwIfFailed(ctx, ctx.store.paymentIntents.get(inv.paymentIntent!));
}
