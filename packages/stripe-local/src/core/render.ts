import type { Context } from './context.ts';
import { renderCoupon, renderCustomer, renderPrice, renderProduct } from '../render/catalog.render.ts';
import {
  renderCharge,
  renderPaymentIntent,
  renderPaymentMethod,
  renderSetupIntent,
} from '../render/payments.render.ts';
import { renderInvoice, renderInvoicePayment, renderSubscription } from '../render/billing.render.ts';
import {
  renderCheckoutLineItems,
  renderCheckoutSession,
  renderPortalSession,
} from '../render/sessions.render.ts';
import { renderEvent, renderTestClock, renderWebhookEndpoint } from '../render/platform.render.ts';
import { list, type Json } from '../render/json.ts';

/**
 * The pinned API version's object shapes (stripe 23.1.0, 2026-10-28.endive). Ids of related objects are
 * plain strings; `expand` replaces them. Fields Stripe only returns when expanded ("includable", like
 * an invoice's confirmation_secret and payments) are rendered by `includable`.
 */
export type { Json };
export * from '../render/catalog.render.ts';
export * from '../render/payments.render.ts';
export * from '../render/billing.render.ts';
export * from '../render/sessions.render.ts';
export * from '../render/platform.render.ts';

/** Renders any stored object by id (for `expand` and events). */
export function renderById(ctx: Context, id: string): Json | undefined {
  const s = ctx.store;
  const found = <T>(row: T | undefined, fn: (ctx: Context, row: T) => Json) =>
    row ? fn(ctx, row) : undefined;
  switch (id.slice(0, id.lastIndexOf('_') + 1)) {
    case 'cus_':
      return found(s.customers.find(id), renderCustomer);
    case 'prod_':
      return found(s.products.find(id), renderProduct);
    case 'price_':
      return found(s.prices.find(id), renderPrice);
    case 'pm_':
      return found(s.paymentMethods.find(id), renderPaymentMethod);
    case 'seti_':
      return found(s.setupIntents.find(id), renderSetupIntent);
    case 'pi_':
      return found(s.paymentIntents.find(id), renderPaymentIntent);
    case 'ch_':
      return found(s.charges.find(id), renderCharge);
    case 'sub_':
      return found(s.subscriptions.find(id), renderSubscription);
    case 'in_':
      return found(s.invoices.find(id), renderInvoice);
    case 'inpay_':
      return found(s.invoicePayments.find(id), renderInvoicePayment);
    case 'cs_test_':
      return found(s.checkoutSessions.find(id), renderCheckoutSession);
    case 'bps_':
      return found(s.portalSessions.find(id), renderPortalSession);
    case 'clock_':
      return found(s.testClocks.find(id), renderTestClock);
    case 'we_':
      return found(s.webhookEndpoints.find(id), renderWebhookEndpoint);
    case 'evt_':
      return found(s.events.find(id), renderEvent);
    default:
      break;
  }
  // Products and coupons may carry ids the caller chose (`prod_` is only the default prefix).
  const product = s.products.find(id);
  if (product) return renderProduct(ctx, product);
  const coupon = s.coupons.find(id);
  return coupon ? renderCoupon(ctx, coupon) : undefined;
}

/** Fields returned only when expanded, by object type. */
export function includable(ctx: Context, object: string, id: string, field: string): Json | undefined {
  if (object === 'invoice') {
    const inv = ctx.store.invoices.find(id);
    if (!inv) return undefined;
    if (field === 'confirmation_secret') {
      const pi = inv.paymentIntent ? ctx.store.paymentIntents.find(inv.paymentIntent) : undefined;
      return pi && inv.status === 'open'
        ? { client_secret: pi.clientSecret, type: 'payment_intent' }
        : undefined;
    }
    if (field === 'payments') {
      return list(
        `/v1/invoice_payments?invoice=${inv.id}`,
        inv.payments.map((p) => renderInvoicePayment(ctx, ctx.store.invoicePayments.get(p))).reverse(),
      );
    }
  }
  if (object === 'checkout.session' && field === 'line_items') {
    const cs = ctx.store.checkoutSessions.find(id);
    return cs ? renderCheckoutLineItems(ctx, cs) : undefined;
  }
  return undefined;
}

export const INCLUDABLE: Record<string, string[]> = {
  invoice: ['confirmation_secret', 'payments'],
  'checkout.session': ['line_items'],
};
