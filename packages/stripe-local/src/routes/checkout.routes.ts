import type { Context } from '../core/context.ts';
import { invalidRequest } from '../core/errors.ts';
import { emit } from '../core/events.ts';
import { endpoint } from '../core/http.ts';
import { newId } from '../core/ids.ts';
import { createdFilter, listShape, matchesCreated, paginate } from '../core/list.ts';
import { arr, bool, int, metadata, obj, oneOf, req, str } from '../core/params.ts';
import type { CheckoutLine } from '../core/records.ts';
import { renderCheckoutLineItems, renderCheckoutSession } from '../core/render.ts';
import { DAY } from '../billing/time.ts';

const priceData = obj({
  currency: req(str(3)),
  product: str(),
  product_data: obj({ name: req(str(250)), description: str(), metadata: metadata() }),
  unit_amount: int(0, 99_999_999),
  recurring: obj({ interval: req(oneOf('day', 'week', 'month', 'year')), interval_count: int(1, 365) }),
  tax_behavior: oneOf('exclusive', 'inclusive', 'unspecified'),
});

function urlParam(value: string | undefined, param: string): string | null {
  if (value === undefined) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw invalidRequest(`Not a valid URL`, { code: 'url_invalid', param });
  }
  return value;
}

function adHocPrice(
  ctx: Context,
  data: {
    currency: string;
    product?: string;
    product_data?: { name: string; description?: string; metadata?: Record<string, string> };
    unit_amount?: number;
    recurring?: { interval: 'day' | 'week' | 'month' | 'year'; interval_count?: number };
  },
): string {
  if (!data.product && !data.product_data)
    throw invalidRequest('Missing required param: line_items[0][price_data][product].', {
      code: 'parameter_missing',
    });
  let product = data.product;
  if (product) ctx.store.products.get(product, 'line_items[0][price_data][product]');
  else {
    const now = ctx.realNow();
    product = ctx.store.products.add({
      id: newId('prod'),
      created: now,
      updated: now,
      name: data.product_data!.name,
      description: data.product_data!.description ?? null,
      active: true,
      metadata: data.product_data!.metadata ?? {},
      defaultPrice: null,
    }).id;
  }
  if (data.unit_amount === undefined)
    throw invalidRequest('Missing required param: line_items[0][price_data][unit_amount].', {
      code: 'parameter_missing',
    });
  return ctx.store.prices.add({
    id: newId('price'),
    created: ctx.realNow(),
    product,
    active: false,
    currency: data.currency.toLowerCase(),
    unitAmount: data.unit_amount,
    recurring: data.recurring
      ? { interval: data.recurring.interval, intervalCount: data.recurring.interval_count ?? 1 }
      : null,
    lookupKey: null,
    nickname: null,
    metadata: {},
    billingScheme: 'per_unit',
    tiersMode: null,
    tiers: null,
  }).id;
}

export const checkoutEndpoints = [
  endpoint(
    'post',
    '/v1/checkout/sessions',
    {
      shape: {
        mode: req(oneOf('payment', 'setup', 'subscription')),
        customer: str(),
        customer_email: str(),
        line_items: arr(obj({ price: str(), price_data: priceData, quantity: int(1) }), 100),
        success_url: str(5000),
        cancel_url: str(5000),
        metadata: metadata(),
        client_reference_id: str(200),
        currency: str(3),
        allowed_payment_method_types: arr(oneOf('card'), 10),
        subscription_data: obj({
          trial_period_days: int(1, 730),
          metadata: metadata(),
          description: str(500),
        }),
        payment_intent_data: obj({
          metadata: metadata(),
          description: str(),
          setup_future_usage: oneOf('off_session', 'on_session'),
        }),
        setup_intent_data: obj({ metadata: metadata(), description: str() }),
        invoice_creation: obj({
          enabled: req(bool()),
          invoice_data: obj({ description: str(1500), metadata: metadata() }),
        }),
        allow_promotion_codes: bool(),
        billing_address_collection: oneOf('auto', 'required'),
        customer_creation: oneOf('always', 'if_required'),
        locale: str(),
        ui_mode: oneOf('hosted'),
        expires_at: int(),
      },
    },
    ({ ctx, params }) => {
      if (params.customer && params.customer_email)
        throw invalidRequest('You may only specify one of these parameters: customer, customer_email.', {
          param: 'customer_email',
        });
      if (params.customer) ctx.store.customers.get(params.customer, 'customer');
      const successUrl = urlParam(params.success_url, 'success_url');
      if (!successUrl)
        throw invalidRequest('Missing required param: success_url.', {
          code: 'parameter_missing',
          param: 'success_url',
        });
      const cancelUrl = urlParam(params.cancel_url, 'cancel_url');
      const lines: CheckoutLine[] = [];
      if (params.mode !== 'setup') {
        if (!params.line_items?.length)
          throw invalidRequest('Missing required param: line_items.', {
            code: 'parameter_missing',
            param: 'line_items',
          });
        for (const [i, item] of params.line_items.entries()) {
          if (!item.price && !item.price_data)
            throw invalidRequest(`Missing required param: line_items[${i}][price].`, {
              code: 'parameter_missing',
              param: `line_items[${i}][price]`,
            });
          const priceId = item.price ?? adHocPrice(ctx, item.price_data!);
          const price = ctx.store.prices.get(priceId, `line_items[${i}][price]`);
          if (params.mode === 'subscription' && !price.recurring)
            throw invalidRequest(
              'You must provide at least one recurring price in `subscription` mode when using prices.',
              { param: `line_items[${i}][price]` },
            );
          if (params.mode === 'payment' && price.recurring)
            throw invalidRequest(
              'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
              { param: `line_items[${i}][price]` },
            );
          lines.push({ id: newId('li'), price: priceId, quantity: item.quantity ?? 1 });
        }
      } else if (!params.currency && !params.customer) {
        throw invalidRequest('Missing required param: currency.', {
          code: 'parameter_missing',
          param: 'currency',
        });
      }
      if (params.mode !== 'payment' && params.invoice_creation)
        throw invalidRequest('You can only specify `invoice_creation` in `payment` mode.', {
          param: 'invoice_creation',
        });
      if (params.mode !== 'subscription' && params.subscription_data)
        throw invalidRequest('You can only specify `subscription_data` in `subscription` mode.', {
          param: 'subscription_data',
        });
      const now = ctx.nowForCustomer(params.customer);
      const id = `cs_test_${newId('').slice(1)}${newId('').slice(1, 20)}`;
      const firstPrice = lines[0] ? ctx.store.prices.get(lines[0].price) : undefined;
      const cs = ctx.store.checkoutSessions.add({
        id,
        created: now,
        expiresAt: params.expires_at ?? now + DAY,
        mode: params.mode,
        status: 'open',
        paymentStatus: 'unpaid',
        customer: params.customer ?? null,
        customerEmail: params.customer_email ?? null,
        clientReferenceId: params.client_reference_id ?? null,
        lines,
        currency: firstPrice?.currency ?? params.currency ?? null,
        successUrl,
        cancelUrl,
        metadata: params.metadata ?? {},
        subscriptionData: {
          trialPeriodDays: params.subscription_data?.trial_period_days ?? null,
          metadata: params.subscription_data?.metadata ?? {},
          description: params.subscription_data?.description ?? null,
        },
        paymentIntentData: {
          metadata: params.payment_intent_data?.metadata ?? {},
          description: params.payment_intent_data?.description ?? null,
        },
        invoiceCreation: params.invoice_creation
          ? {
              enabled: params.invoice_creation.enabled,
              description: params.invoice_creation.invoice_data?.description ?? null,
              metadata: params.invoice_creation.invoice_data?.metadata ?? {},
            }
          : null,
        setupIntentData: { metadata: params.setup_intent_data?.metadata ?? {} },
        subscription: null,
        paymentIntent: null,
        setupIntent: null,
        invoice: null,
        paymentMethodTypes: params.allowed_payment_method_types ?? ['card'],
        pendingIntent: null,
        lastError: null,
        url: ctx.url(`/c/pay/${id}`),
      });
      return renderCheckoutSession(ctx, cs);
    },
  ),
  endpoint('get', '/v1/checkout/sessions/:id', { shape: {} }, ({ ctx, path }) =>
    renderCheckoutSession(ctx, ctx.store.checkoutSessions.get(path.id!)),
  ),
  endpoint('get', '/v1/checkout/sessions/:id/line_items', { shape: listShape }, ({ ctx, path }) =>
    renderCheckoutLineItems(ctx, ctx.store.checkoutSessions.get(path.id!)),
  ),
  endpoint('post', '/v1/checkout/sessions/:id/expire', { shape: {} }, ({ ctx, path }) => {
    const cs = ctx.store.checkoutSessions.get(path.id!);
    if (cs.status !== 'open')
      throw invalidRequest(
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${cs.status}".`,
        {},
      );
    cs.status = 'expired';
    emit(ctx, 'checkout.session.expired', cs.id);
    return renderCheckoutSession(ctx, cs);
  }),
  endpoint(
    'get',
    '/v1/checkout/sessions',
    {
      shape: {
        ...listShape,
        customer: str(),
        subscription: str(),
        payment_intent: str(),
        status: oneOf('open', 'complete', 'expired'),
        created: createdFilter,
      },
    },
    ({ ctx, params }) =>
      paginate(
        ctx,
        ctx.store.checkoutSessions
          .list()
          .filter(
            (cs) =>
              (!params.customer || cs.customer === params.customer) &&
              (!params.subscription || cs.subscription === params.subscription) &&
              (!params.payment_intent || cs.paymentIntent === params.payment_intent) &&
              (!params.status || cs.status === params.status) &&
              matchesCreated(cs.created, params.created),
          ),
        params,
        '/v1/checkout/sessions',
        renderCheckoutSession,
      ),
  ),
];
