import type { Context } from '../core/context.ts';
import type { CouponRecord, CustomerRecord, PriceRecord, ProductRecord } from '../core/records.ts';
import type { Json } from './json.ts';

export function renderCustomer(_ctx: Context, c: CustomerRecord): Json {
  if (c.deleted) return { id: c.id, object: 'customer', deleted: true };
  return {
    id: c.id,
    object: 'customer',
    address: null,
    balance: 0,
    created: c.created,
    currency: null,
    customer_account: null,
    default_source: null,
    delinquent: false,
    description: c.description,
    discount: null,
    email: c.email,
    invoice_prefix: c.id.slice(4, 12).toUpperCase(),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: c.defaultPaymentMethod,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: c.metadata,
    name: c.name,
    next_invoice_sequence: 1,
    phone: c.phone,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: c.testClock,
  };
}

export function renderProduct(_ctx: Context, p: ProductRecord): Json {
  return {
    id: p.id,
    object: 'product',
    active: p.active,
    created: p.created,
    default_price: p.defaultPrice,
    description: p.description,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: p.metadata,
    name: p.name,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    type: 'service',
    unit_label: null,
    updated: p.updated,
    url: null,
  };
}

export function renderPrice(_ctx: Context, p: PriceRecord): Json {
  return {
    id: p.id,
    object: 'price',
    active: p.active,
    billing_scheme: p.billingScheme,
    created: p.created,
    currency: p.currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: p.lookupKey,
    metadata: p.metadata,
    nickname: p.nickname,
    product: p.product,
    recurring: p.recurring
      ? {
          interval: p.recurring.interval,
          interval_count: p.recurring.intervalCount,
          meter: null,
          trial_period_days: null,
          usage_type: 'licensed',
        }
      : null,
    tax_behavior: 'unspecified',
    ...(p.tiers
      ? {
          tiers: p.tiers.map((t) => ({
            flat_amount: t.flatAmount,
            flat_amount_decimal: t.flatAmount === null ? null : String(t.flatAmount),
            unit_amount: t.unitAmount,
            unit_amount_decimal: t.unitAmount === null ? null : String(t.unitAmount),
            up_to: t.upTo,
          })),
        }
      : {}),
    tiers_mode: p.tiersMode,
    transform_quantity: null,
    type: p.recurring ? 'recurring' : 'one_time',
    unit_amount: p.unitAmount,
    unit_amount_decimal: p.unitAmount === null ? null : String(p.unitAmount),
  };
}

/** The legacy `plan` that subscription items still carry beside `price`. */
export function renderPlan(p: PriceRecord): Json {
  return {
    id: p.id,
    object: 'plan',
    active: p.active,
    amount: p.unitAmount,
    amount_decimal: p.unitAmount === null ? null : String(p.unitAmount),
    billing_scheme: p.billingScheme,
    created: p.created,
    currency: p.currency,
    interval: p.recurring?.interval ?? 'month',
    interval_count: p.recurring?.intervalCount ?? 1,
    livemode: false,
    metadata: p.metadata,
    meter: null,
    nickname: p.nickname,
    product: p.product,
    tiers_mode: p.tiersMode,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

export function renderCoupon(_ctx: Context, c: CouponRecord): Json {
  return {
    id: c.id,
    object: 'coupon',
    amount_off: c.amountOff,
    created: c.created,
    currency: c.currency,
    duration: c.duration,
    duration_in_months: c.durationInMonths,
    livemode: false,
    max_redemptions: null,
    metadata: c.metadata,
    name: c.name,
    percent_off: c.percentOff,
    redeem_by: null,
    times_redeemed: c.timesRedeemed,
    valid: true,
  };
}
