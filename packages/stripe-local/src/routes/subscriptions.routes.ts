import { cancelSubscription, createSubscription, type PaymentBehavior } from '../billing/subscriptions.ts';
import { updateSubscription } from '../billing/update-subscription.ts';
import { checkPendingParams } from '../billing/pending-update.ts';
import { stripeLocalUnsupported } from '../core/sdk-params.ts';
import { DAY } from '../billing/time.ts';
import { invalidRequest } from '../core/errors.ts';
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
import { renderSubscription } from '../core/render.ts';

const paymentBehavior = oneOf(
  'allow_incomplete',
  'default_incomplete',
  'error_if_incomplete',
  'pending_if_incomplete',
);
const discounts = arr(obj({ coupon: str(), promotion_code: str(), discount: str() }), 20);
const paymentSettings = obj({
  save_default_payment_method: oneOf('on_subscription', 'off'),
  payment_method_types: arr(oneOf('card'), 10),
});
const trialSettings = obj({
  end_behavior: req(obj({ missing_payment_method: req(oneOf('cancel', 'create_invoice', 'pause')) })),
});
const cancellationDetails = obj({
  comment: clearable(str(5000)),
  feedback: clearable(
    oneOf(
      'customer_service',
      'low_quality',
      'missing_features',
      'other',
      'switched_service',
      'too_complex',
      'too_expensive',
      'unused',
    ),
  ),
});

function couponsOf(list: { coupon?: string }[] | null | undefined): string[] | undefined {
  if (list === undefined) return undefined;
  if (list === null) return [];
  return list.map((d, i) => {
    if (!d.coupon)
      throw invalidRequest(`Missing required param: discounts[${i}][coupon].`, {
        code: 'parameter_missing',
        param: `discounts[${i}][coupon]`,
      });
    return d.coupon;
  });
}

export const subscriptionEndpoints = [
  endpoint(
    'post',
    '/v1/subscriptions',
    {
      shape: {
        customer: req(str()),
        items: req(arr(obj({ price: req(str()), quantity: int(0), metadata: metadata() }), 20)),
        trial_period_days: int(0, 730),
        trial_end: timestampOrNow(),
        default_payment_method: str(),
        payment_behavior: paymentBehavior,
        discounts,
        metadata: metadata(),
        description: str(500),
        payment_settings: paymentSettings,
        cancel_at_period_end: bool(),
        collection_method: oneOf('charge_automatically'),
        proration_behavior: oneOf('create_prorations', 'none', 'always_invoice'),
        off_session: bool(),
        trial_from_plan: bool(),
        trial_settings: trialSettings,
      },
    },
    ({ ctx, params }) => {
      const customer = ctx.store.customers.get(params.customer, 'customer');
      const now = ctx.nowFor(customer.testClock);
      if (params.trial_end !== undefined && params.trial_period_days !== undefined)
        throw invalidRequest('You may only specify one of these parameters: trial_end, trial_period_days.', {
          param: 'trial_end',
        });
      let trialEnd: number | null = null;
      if (params.trial_period_days) trialEnd = now + params.trial_period_days * DAY;
      if (typeof params.trial_end === 'number') trialEnd = params.trial_end;
      const sub = createSubscription(ctx, {
        customer: customer.id,
        items: params.items.map((i) => ({ price: i.price, quantity: i.quantity ?? 1, metadata: i.metadata })),
        trialEnd,
        defaultPaymentMethod: params.default_payment_method ?? null,
        paymentBehavior: (params.payment_behavior ?? 'allow_incomplete') as PaymentBehavior,
        coupons: couponsOf(params.discounts) ?? [],
        metadata: params.metadata ?? {},
        description: params.description ?? null,
        saveDefaultPaymentMethod: params.payment_settings?.save_default_payment_method ?? 'off',
        cancelAtPeriodEnd: params.cancel_at_period_end ?? false,
        trialEndBehavior: params.trial_settings?.end_behavior.missing_payment_method,
      });
      return renderSubscription(ctx, sub);
    },
  ),
  endpoint('get', '/v1/subscriptions/:id', { shape: {} }, ({ ctx, path }) =>
    renderSubscription(ctx, ctx.store.subscriptions.get(path.id!)),
  ),
  endpoint(
    'post',
    '/v1/subscriptions/:id',
    {
      shape: {
        items: arr(
          obj({
            id: str(),
            price: str(),
            quantity: int(0),
            deleted: bool(),
            metadata: metadata(),
            clear_usage: bool(),
          }),
          20,
        ),
        cancel_at_period_end: bool(),
        cancel_at: clearable(int()),
        trial_end: timestampOrNow(),
        proration_behavior: oneOf('create_prorations', 'none', 'always_invoice'),
        proration_date: int(),
        default_payment_method: clearable(str()),
        payment_behavior: paymentBehavior,
        metadata: metadata(),
        description: clearable(str(500)),
        discounts: clearable(discounts),
        payment_settings: paymentSettings,
        cancellation_details: cancellationDetails,
        billing_cycle_anchor: oneOf('now', 'unchanged'),
        trial_settings: trialSettings,
        off_session: bool(),
      },
    },
    ({ ctx, params, path }) => {
      const sub = ctx.store.subscriptions.get(path.id!);
      if (params.payment_behavior === 'pending_if_incomplete') checkPendingParams(params);
      // Resetting the cycle by itself is not implemented (a new interval or a trial's end does reset it).
      if (params.billing_cycle_anchor === 'now') throw stripeLocalUnsupported('billing_cycle_anchor');
      if (params.cancel_at !== undefined && params.cancel_at_period_end !== undefined)
        throw invalidRequest(
          'You may only specify one of these parameters: cancel_at, cancel_at_period_end.',
          {
            param: 'cancel_at',
          },
        );
      if (params.payment_settings?.save_default_payment_method)
        sub.saveDefaultPaymentMethod = params.payment_settings.save_default_payment_method;
      updateSubscription(ctx, sub, {
        items: params.items,
        cancelAtPeriodEnd: params.cancel_at_period_end,
        cancelAt: params.cancel_at,
        trialEnd: params.trial_end,
        prorationBehavior: params.proration_behavior,
        prorationDate: params.proration_date,
        defaultPaymentMethod: params.default_payment_method,
        metadata: params.metadata === undefined ? undefined : mergeMetadata(sub.metadata, params.metadata),
        description: params.description,
        coupons: couponsOf(params.discounts),
        paymentBehavior: params.payment_behavior as PaymentBehavior | undefined,
        cancellationDetails: params.cancellation_details,
        trialEndBehavior: params.trial_settings?.end_behavior.missing_payment_method,
      });
      return renderSubscription(ctx, sub);
    },
  ),
  endpoint(
    'delete',
    '/v1/subscriptions/:id',
    { shape: { invoice_now: bool(), prorate: bool(), cancellation_details: cancellationDetails } },
    ({ ctx, params, path }) => {
      const sub = ctx.store.subscriptions.get(path.id!);
      cancelSubscription(ctx, sub, params.cancellation_details ?? {}, {
        invoiceNow: params.invoice_now,
        prorate: params.prorate,
      });
      return renderSubscription(ctx, sub);
    },
  ),
  endpoint(
    'get',
    '/v1/subscriptions',
    {
      shape: {
        ...listShape,
        customer: str(),
        price: str(),
        status: oneOf(
          'active',
          'all',
          'canceled',
          'ended',
          'incomplete',
          'incomplete_expired',
          'past_due',
          'paused',
          'trialing',
          'unpaid',
        ),
        test_clock: str(),
        created: createdFilter,
      },
    },
    ({ ctx, params }) => {
      const status = params.status;
      return paginate(
        ctx,
        ctx.store.subscriptions.list().filter((s) => {
          if (params.customer && s.customer !== params.customer) return false;
          if (params.price && !s.items.some((i) => i.price === params.price)) return false;
          if (params.test_clock && s.testClock !== params.test_clock) return false;
          if (!matchesCreated(s.created, params.created)) return false;
          if (status === 'all') return true;
          if (status === 'ended') return s.status === 'canceled' || s.status === 'incomplete_expired';
          if (status) return s.status === status;
          return s.status !== 'canceled' && s.status !== 'incomplete_expired';
        }),
        params,
        '/v1/subscriptions',
        renderSubscription,
      );
    },
  ),
];
