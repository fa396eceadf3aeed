import { attemptInvoice, markUncollectible, voidInvoice } from '../billing/invoices.ts';
import { changedFields, emit } from '../core/events.ts';
import type { Context } from '../core/context.ts';
import type { InvoiceRecord } from '../core/records.ts';
import { throwIfFailed } from '../billing/payment-intents.ts';
import { attachPaymentMethod, resolvePaymentMethod } from '../billing/payment-methods.ts';
import { invalidRequest, StripeError } from '../core/errors.ts';
import { endpoint } from '../core/http.ts';
import { createdFilter, listShape, matchesCreated, paginate } from '../core/list.ts';
import {
  arr,
  bool,
  clearable,
  int,
  mergeMetadata,
  metadata,
  obj,
  oneOf,
  req,
  str,
  timestampOrNow,
} from '../core/params.ts';
import { previewInvoice } from '../billing/invoice-preview.ts';
import { renderInvoice, renderInvoicePayment } from '../core/render.ts';

const previewItem = obj({
  id: str(),
  price: str(),
  quantity: int(0),
  deleted: bool(),
});

export const invoiceEndpoints = [
  // Before `/v1/invoices/:id`, which would take `create_preview` for an id.
  endpoint(
    'post',
    '/v1/invoices/create_preview',
    {
      shape: {
        customer: str(),
        subscription: str(),
        subscription_details: obj({
          items: arr(previewItem, 20),
          proration_behavior: oneOf('create_prorations', 'none', 'always_invoice'),
          proration_date: int(),
          trial_end: timestampOrNow(),
        }),
      },
    },
    ({ ctx, params }) => {
      const details = params.subscription_details;
      return previewInvoice(ctx, {
        customer: params.customer,
        subscription: params.subscription,
        details: details && {
          items: details.items,
          prorationBehavior: details.proration_behavior,
          prorationDate: details.proration_date,
          trialEnd: details.trial_end,
        },
      });
    },
  ),
  endpoint('get', '/v1/invoices/:id', { shape: {} }, ({ ctx, path }) =>
    renderInvoice(ctx, ctx.store.invoices.get(path.id!)),
  ),
  endpoint(
    'get',
    '/v1/invoices',
    {
      shape: {
        ...listShape,
        customer: str(),
        subscription: str(),
        status: oneOf('draft', 'open', 'paid', 'uncollectible', 'void'),
        collection_method: oneOf('charge_automatically', 'send_invoice'),
        created: createdFilter,
      },
    },
    ({ ctx, params }) =>
      paginate(
        ctx,
        ctx.store.invoices
          .list()
          .filter(
            (i) =>
              (!params.customer || i.customer === params.customer) &&
              (!params.subscription || i.subscription === params.subscription) &&
              (!params.status || i.status === params.status) &&
              matchesCreated(i.created, params.created),
          ),
        params,
        '/v1/invoices',
        renderInvoice,
      ),
  ),
  endpoint(
    'post',
    '/v1/invoices/:id/pay',
    { shape: { payment_method: str(), off_session: bool(), paid_out_of_band: bool(), forgive: bool() } },
    ({ ctx, params, path }) => {
      const inv = ctx.store.invoices.get(path.id!);
      if (inv.status === 'paid')
        throw invalidRequest('Invoice is already paid.', { code: 'invoice_already_paid' });
      if (inv.status !== 'open' && inv.status !== 'uncollectible')
        throw new StripeError(400, {
          type: 'invalid_request_error',
          code: 'invoice_not_editable',
          message: `You can only pay an invoice that is open or uncollectible. This invoice is ${inv.status}.`,
        });
      let pmId: string | undefined;
      if (params.payment_method) {
        const pm = resolvePaymentMethod(ctx, params.payment_method);
        if (!pm.customer) attachPaymentMethod(ctx, pm, inv.customer);
        pmId = pm.id;
      }
      const outcome = attemptInvoice(ctx, inv, {
        offSession: params.off_session ?? true,
        paymentMethod: pmId,
      });
      const pi = inv.paymentIntent ? ctx.store.paymentIntents.get(inv.paymentIntent) : undefined;
      if (outcome === 'requires_action')
        throw new StripeError(402, {
          type: 'card_error',
          code: 'invoice_payment_intent_requires_action',
          message: 'This payment requires additional user action before it can be completed successfully.',
        });
      if (outcome === 'failed') {
        if (pi) throwIfFailed(ctx, pi);
        throw invalidRequest('This customer has no attached payment source or default payment method.', {
          code: 'invoice_no_payment_method_types',
        });
      }
      return renderInvoice(ctx, inv);
    },
  ),
  endpoint(
    'post',
    '/v1/invoices/:id',
    { shape: { auto_advance: bool(), metadata: metadata(), description: clearable(str()) } },
    ({ ctx, params, path }) => {
      const inv = ctx.store.invoices.get(path.id!);
      if (inv.status === 'void' || inv.status === 'paid')
        throw invalidRequest(`This invoice is ${inv.status} and can no longer be updated.`, {
          code: 'invoice_not_editable',
        });
      update(ctx, inv, () => {
        if (params.auto_advance !== undefined) {
          inv.autoAdvance = params.auto_advance;
          if (!params.auto_advance) inv.nextPaymentAttempt = null;
        }
        inv.metadata = mergeMetadata(inv.metadata, params.metadata);
        if (params.description !== undefined) inv.description = params.description;
      });
      return renderInvoice(ctx, inv);
    },
  ),
  endpoint('post', '/v1/invoices/:id/void', { shape: {} }, ({ ctx, path }) => {
    const inv = ctx.store.invoices.get(path.id!);
    if (inv.status !== 'open' && inv.status !== 'uncollectible')
      throw invalidRequest(
        `You can only void an invoice that is open or uncollectible. This invoice is ${inv.status}.`,
        { code: 'invoice_not_editable' },
      );
    voidInvoice(ctx, inv);
    return renderInvoice(ctx, inv);
  }),
  endpoint('post', '/v1/invoices/:id/mark_uncollectible', { shape: {} }, ({ ctx, path }) => {
    const inv = ctx.store.invoices.get(path.id!);
    if (inv.status !== 'open')
      throw invalidRequest(
        `You can only mark an invoice that is open as uncollectible. This invoice is ${inv.status}.`,
        { code: 'invoice_not_editable' },
      );
    markUncollectible(ctx, inv);
    return renderInvoice(ctx, inv);
  }),
  endpoint(
    'get',
    '/v1/invoice_payments',
    {
      shape: {
        ...listShape,
        invoice: str(),
        payment: obj({ type: req(oneOf('payment_intent')), payment_intent: str() }),
      },
    },
    ({ ctx, params }) =>
      paginate(
        ctx,
        ctx.store.invoicePayments
          .list()
          .filter(
            (p) =>
              (!params.invoice || p.invoice === params.invoice) &&
              (!params.payment?.payment_intent || p.paymentIntent === params.payment.payment_intent),
          ),
        params,
        '/v1/invoice_payments',
        renderInvoicePayment,
      ),
  ),
  endpoint('get', '/v1/invoice_payments/:id', { shape: {} }, ({ ctx, path }) =>
    renderInvoicePayment(ctx, ctx.store.invoicePayments.get(path.id!)),
  ),
];

/** Applies a change and sends `invoice.updated` with what changed. */
function update(ctx: Context, inv: InvoiceRecord, change: () => void): void {
  const before = renderInvoice(ctx, inv);
  change();
  const previous = changedFields(before, renderInvoice(ctx, inv));
  if (Object.keys(previous).length) emit(ctx, 'invoice.updated', inv.id, { previous });
}
