import { invalidRequest } from '../core/errors.ts';
import { changedFields, emit } from '../core/events.ts';
import { endpoint } from '../core/http.ts';
import { newId } from '../core/ids.ts';
import { createdFilter, listShape, matchesCreated, paginate } from '../core/list.ts';
import {
  arr,
  bool,
  clearable,
  decimal,
  int,
  mergeMetadata,
  metadata,
  obj,
  oneOf,
  req,
  str,
  type Field,
} from '../core/params.ts';
import type { Context } from '../core/context.ts';
import type { ProductRecord, Tier } from '../core/records.ts';
import { renderCoupon, renderPrice, renderProduct } from '../core/render.ts';

const CURRENCIES = ['usd', 'eur', 'gbp', 'cad', 'aud', 'chf', 'sek', 'nok', 'dkk', 'jpy', 'inr'] as const;
const currency = (): Field<string> => ({
  ...str(3),
  parse(value, param) {
    const v = str(3).parse(value, param).toLowerCase();
    if (!(CURRENCIES as readonly string[]).includes(v))
      throw invalidRequest(
        `Invalid currency: ${v}. Stripe currently supports these currencies: ${CURRENCIES.join(', ')}`,
        { param },
      );
    return v;
  },
});

/** `up_to` is a positive integer or `inf`. */
const upTo = (): Field<number | 'inf'> => ({
  required: false,
  clearable: false,
  parse: (value, param) => (value === 'inf' ? 'inf' : int(1).parse(value, param)),
});

function createProduct(
  ctx: Context,
  p: {
    name: string;
    description?: string | null;
    active?: boolean;
    metadata?: Record<string, string>;
    id?: string;
  },
): ProductRecord {
  if (p.id && ctx.store.products.find(p.id))
    throw invalidRequest(`Product already exists.`, { code: 'resource_already_exists', param: 'id' });
  const now = ctx.realNow();
  const product = ctx.store.products.add({
    id: p.id ?? newId('prod'),
    created: now,
    updated: now,
    name: p.name,
    description: p.description ?? null,
    active: p.active ?? true,
    metadata: p.metadata ?? {},
    defaultPrice: null,
  });
  emit(ctx, 'product.created', product.id, { customer: null });
  return product;
}

const productShape = { name: str(250), description: clearable(str()), active: bool(), metadata: metadata() };

export const catalogEndpoints = [
  endpoint(
    'post',
    '/v1/products',
    { shape: { ...productShape, name: req(str(250)), id: str(250) } },
    ({ ctx, params }) => renderProduct(ctx, createProduct(ctx, params)),
  ),
  endpoint('get', '/v1/products/:id', { shape: {} }, ({ ctx, path }) =>
    renderProduct(ctx, ctx.store.products.get(path.id!)),
  ),
  endpoint('post', '/v1/products/:id', { shape: productShape }, ({ ctx, params, path }) => {
    const product = ctx.store.products.get(path.id!);
    const before = renderProduct(ctx, product);
    if (params.name !== undefined) product.name = params.name;
    if (params.description !== undefined) product.description = params.description;
    if (params.active !== undefined) product.active = params.active;
    product.metadata = mergeMetadata(product.metadata, params.metadata);
    product.updated = ctx.realNow();
    emit(ctx, 'product.updated', product.id, {
      customer: null,
      previous: changedFields(before, renderProduct(ctx, product)),
    });
    return renderProduct(ctx, product);
  }),
  endpoint(
    'get',
    '/v1/products',
    { shape: { ...listShape, active: bool(), ids: arr(str()), created: createdFilter } },
    ({ ctx, params }) =>
      paginate(
        ctx,
        ctx.store.products
          .list()
          .filter(
            (p) =>
              (params.active === undefined || p.active === params.active) &&
              (params.ids === undefined || params.ids.includes(p.id)) &&
              matchesCreated(p.created, params.created),
          ),
        params,
        '/v1/products',
        renderProduct,
      ),
  ),

  endpoint(
    'post',
    '/v1/prices',
    {
      shape: {
        currency: req(currency()),
        product: str(),
        product_data: obj({ name: req(str(250)), active: bool(), metadata: metadata(), id: str() }),
        unit_amount: int(0, 99_999_999),
        recurring: obj({
          interval: req(oneOf('day', 'week', 'month', 'year')),
          interval_count: int(1, 365),
          usage_type: oneOf('licensed'),
        }),
        lookup_key: str(200),
        transfer_lookup_key: bool(),
        nickname: str(),
        active: bool(),
        metadata: metadata(),
        billing_scheme: oneOf('per_unit', 'tiered'),
        tiers_mode: oneOf('graduated', 'volume'),
        tiers: arr(obj({ up_to: req(upTo()), flat_amount: int(0), unit_amount: int(0) }), 250),
        tax_behavior: oneOf('exclusive', 'inclusive', 'unspecified'),
      },
    },
    ({ ctx, params }) => {
      if (params.product && params.product_data)
        throw invalidRequest('You may only specify one of these parameters: product, product_data.', {
          param: 'product',
        });
      if (!params.product && !params.product_data)
        throw invalidRequest('Missing required param: product.', {
          code: 'parameter_missing',
          param: 'product',
        });
      const scheme = params.billing_scheme ?? 'per_unit';
      let tiers: Tier[] | null = null;
      if (scheme === 'tiered') {
        if (!params.tiers_mode)
          throw invalidRequest('Missing required param: tiers_mode.', {
            code: 'parameter_missing',
            param: 'tiers_mode',
          });
        if (!params.tiers?.length)
          throw invalidRequest('Missing required param: tiers.', {
            code: 'parameter_missing',
            param: 'tiers',
          });
        if (params.unit_amount !== undefined)
          throw invalidRequest('You cannot specify `unit_amount` with `billing_scheme=tiered`.', {
            param: 'unit_amount',
          });
        tiers = params.tiers.map((t, i) => {
          if (t.flat_amount === undefined && t.unit_amount === undefined)
            throw invalidRequest('Each tier must have either `unit_amount` or `flat_amount`.', {
              param: `tiers[${i}]`,
            });
          return {
            upTo: t.up_to === 'inf' ? null : t.up_to,
            flatAmount: t.flat_amount ?? null,
            unitAmount: t.unit_amount ?? null,
          };
        });
        if (tiers[tiers.length - 1]!.upTo !== null)
          throw invalidRequest('The last tier must have `up_to` set to `inf`.', { param: 'tiers' });
      } else {
        if (params.tiers || params.tiers_mode)
          throw invalidRequest('`tiers` and `tiers_mode` can only be used with `billing_scheme=tiered`.', {
            param: params.tiers ? 'tiers' : 'tiers_mode',
          });
        if (params.unit_amount === undefined)
          throw invalidRequest('Missing required param: unit_amount.', {
            code: 'parameter_missing',
            param: 'unit_amount',
          });
      }
      const productId = params.product ?? createProduct(ctx, params.product_data!).id;
      ctx.store.products.get(productId, 'product');
      if (params.lookup_key) {
        const holder = [...ctx.store.prices.values()].find((p) => p.lookupKey === params.lookup_key);
        if (holder) {
          if (!params.transfer_lookup_key)
            throw invalidRequest(
              `A price (\`${holder.id}\`) already uses that lookup key. Use \`transfer_lookup_key\` to transfer the lookup key to this price.`,
              { param: 'lookup_key' },
            );
          holder.lookupKey = null;
        }
      }
      const price = ctx.store.prices.add({
        id: newId('price'),
        created: ctx.realNow(),
        product: productId,
        active: params.active ?? true,
        currency: params.currency,
        unitAmount: scheme === 'tiered' ? null : params.unit_amount!,
        recurring: params.recurring
          ? { interval: params.recurring.interval, intervalCount: params.recurring.interval_count ?? 1 }
          : null,
        lookupKey: params.lookup_key ?? null,
        nickname: params.nickname ?? null,
        metadata: params.metadata ?? {},
        billingScheme: scheme,
        tiersMode: scheme === 'tiered' ? params.tiers_mode! : null,
        tiers,
      });
      const product = ctx.store.products.get(productId);
      product.defaultPrice ??= price.id;
      emit(ctx, 'price.created', price.id, { customer: null });
      return renderPrice(ctx, price);
    },
  ),
  endpoint('get', '/v1/prices/:id', { shape: {} }, ({ ctx, path }) =>
    renderPrice(ctx, ctx.store.prices.get(path.id!)),
  ),
  endpoint(
    'post',
    '/v1/prices/:id',
    {
      shape: {
        active: bool(),
        metadata: metadata(),
        nickname: clearable(str()),
        lookup_key: clearable(str(200)),
        transfer_lookup_key: bool(),
      },
    },
    ({ ctx, params, path }) => {
      const price = ctx.store.prices.get(path.id!);
      if (params.active !== undefined) price.active = params.active;
      if (params.nickname !== undefined) price.nickname = params.nickname;
      price.metadata = mergeMetadata(price.metadata, params.metadata);
      if (params.lookup_key !== undefined) {
        const holder = [...ctx.store.prices.values()].find(
          (p) => p.lookupKey === params.lookup_key && p.id !== price.id,
        );
        if (holder && params.lookup_key) {
          if (!params.transfer_lookup_key)
            throw invalidRequest(`A price (\`${holder.id}\`) already uses that lookup key.`, {
              param: 'lookup_key',
            });
          holder.lookupKey = null;
        }
        price.lookupKey = params.lookup_key;
      }
      emit(ctx, 'price.updated', price.id, { customer: null });
      return renderPrice(ctx, price);
    },
  ),
  endpoint(
    'get',
    '/v1/prices',
    {
      shape: {
        ...listShape,
        active: bool(),
        product: str(),
        currency: str(3),
        lookup_keys: arr(str(200), 10),
        type: oneOf('one_time', 'recurring'),
        created: createdFilter,
      },
    },
    ({ ctx, params }) =>
      paginate(
        ctx,
        ctx.store.prices
          .list()
          .filter(
            (p) =>
              (params.active === undefined || p.active === params.active) &&
              (params.product === undefined || p.product === params.product) &&
              (params.currency === undefined || p.currency === params.currency) &&
              (params.lookup_keys === undefined ||
                (p.lookupKey !== null && params.lookup_keys.includes(p.lookupKey))) &&
              (params.type === undefined || (params.type === 'recurring') === (p.recurring !== null)) &&
              matchesCreated(p.created, params.created),
          ),
        params,
        '/v1/prices',
        renderPrice,
      ),
  ),

  endpoint(
    'post',
    '/v1/coupons',
    {
      shape: {
        id: str(200),
        name: str(40),
        percent_off: decimal(0, 100),
        amount_off: int(1),
        currency: currency(),
        duration: oneOf('once', 'repeating', 'forever'),
        duration_in_months: int(1),
        metadata: metadata(),
        max_redemptions: int(1),
      },
    },
    ({ ctx, params }) => {
      if (params.percent_off === undefined && params.amount_off === undefined)
        throw invalidRequest('Missing required param: percent_off or amount_off.', {
          code: 'parameter_missing',
          param: 'percent_off',
        });
      if (params.amount_off !== undefined && !params.currency)
        throw invalidRequest('Missing required param: currency.', {
          code: 'parameter_missing',
          param: 'currency',
        });
      if (params.id && ctx.store.coupons.find(params.id))
        throw invalidRequest('Coupon already exists.', { code: 'resource_already_exists', param: 'id' });
      const duration = params.duration ?? 'once';
      if (duration === 'repeating' && !params.duration_in_months)
        throw invalidRequest('Missing required param: duration_in_months.', {
          code: 'parameter_missing',
          param: 'duration_in_months',
        });
      const coupon = ctx.store.coupons.add({
        id: params.id ?? newId('').slice(1, 9),
        created: ctx.realNow(),
        name: params.name ?? null,
        percentOff: params.percent_off ?? null,
        amountOff: params.amount_off ?? null,
        currency: params.currency ?? null,
        duration,
        durationInMonths: params.duration_in_months ?? null,
        metadata: params.metadata ?? {},
        timesRedeemed: 0,
      });
      emit(ctx, 'coupon.created', coupon.id, { customer: null });
      return renderCoupon(ctx, coupon);
    },
  ),
  endpoint('get', '/v1/coupons/:id', { shape: {} }, ({ ctx, path }) =>
    renderCoupon(ctx, ctx.store.coupons.get(path.id!)),
  ),
];
