import type { Context } from '../core/context.ts';
import { invalidRequest } from '../core/errors.ts';
import { changedFields, emit } from '../core/events.ts';
import { newId } from '../core/ids.ts';
import type {
  InvoiceLine,
  PriceRecord,
  SubscriptionItemRecord,
  SubscriptionRecord,
} from '../core/records.ts';
import { renderSubscription } from '../core/render.ts';
import { formatMoney, priceAmount } from './amounts.ts';
import { stopCollection, voidInvoice } from './invoices.ts';
import { discardPendingUpdate } from './pending-update.ts';
import { DAY } from './time.ts';

// What the subscription modules share: prices to invoice lines, the interval, an update with its event, the end.

export type PaymentBehavior =
  'allow_incomplete' | 'default_incomplete' | 'error_if_incomplete' | 'pending_if_incomplete';

export function recurringPrice(ctx: Context, id: string, param: string): PriceRecord {
  const price = ctx.store.prices.get(id, param);
  if (!price.recurring)
    throw invalidRequest(
      `The price specified is set to \`type=one_time\` but this field only accepts prices with \`type=recurring\`.`,
      { param },
    );
  if (!price.active)
    throw invalidRequest(`The price specified is inactive. This field only accepts active prices.`, {
      param,
    });
  return price;
}

export function lineFor(
  ctx: Context,
  item: SubscriptionItemRecord,
  start: number,
  end: number,
  trial = false,
): InvoiceLine {
  const price = ctx.store.prices.get(item.price);
  const product = ctx.store.products.find(price.product);
  const name = product?.name ?? price.id;
  const interval = price.recurring?.interval ?? 'month';
  const amount = trial ? 0 : priceAmount(price, item.quantity);
  return {
    id: newId('il'),
    amount,
    description: trial
      ? `Trial period for ${name}`
      : price.billingScheme === 'tiered'
        ? `${item.quantity} × ${name} (Tier pricing)`
        : `${item.quantity} × ${name} (at ${formatMoney(price.unitAmount ?? 0, price.currency)} / ${interval})`,
    price: price.id,
    quantity: item.quantity,
    periodStart: start,
    periodEnd: end,
    proration: false,
    subscriptionItem: item.id,
  };
}

export const intervalOf = (ctx: Context, sub: SubscriptionRecord) => {
  const price = ctx.store.prices.get(sub.items[0]!.price);
  return price.recurring ?? { interval: 'month' as const, intervalCount: 1 };
};

export function update(ctx: Context, sub: SubscriptionRecord, change: () => void): void {
  const before = renderSubscription(ctx, sub);
  change();
  const previous = changedFields(before, renderSubscription(ctx, sub));
  if (Object.keys(previous).length) emit(ctx, 'customer.subscription.updated', sub.id, { previous });
}

export function maybeTrialWillEnd(ctx: Context, sub: SubscriptionRecord): void {
  if (sub.status !== 'trialing' || sub.trialWillEndSent || !sub.trialEnd) return;
  if (ctx.nowFor(sub.testClock) >= sub.trialEnd - 3 * DAY) {
    sub.trialWillEndSent = true;
    emit(ctx, 'customer.subscription.trial_will_end', sub.id);
  }
}

/** Ends a subscription now (`canceled`, customer.subscription.deleted). */
export function endSubscription(ctx: Context, sub: SubscriptionRecord, reason: string | null): void {
  const now = ctx.nowFor(sub.testClock);
  // A change waiting for its payment can no longer apply: its invoice is voided with it.
  const pending = sub.pendingUpdate ? ctx.store.invoices.find(sub.pendingUpdate.invoice) : undefined;
  if (pending) voidInvoice(ctx, pending);
  discardPendingUpdate(ctx, sub);
  stopCollection(ctx, sub);
  sub.status = 'canceled';
  sub.endedAt = now;
  sub.canceledAt ??= now;
  if (reason) sub.cancellationDetails = { ...sub.cancellationDetails, reason };
  sub.incompleteExpiresAt = null;
  emit(ctx, 'customer.subscription.deleted', sub.id);
}
