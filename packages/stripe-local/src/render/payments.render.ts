import type { Context } from '../core/context.ts';
import type {
  AutomaticPaymentMethods,
  ChargeRecord,
  LastError,
  NextAction,
  PaymentIntentRecord,
  PaymentMethodRecord,
  SetupIntentRecord,
} from '../core/records.ts';
import type { Json } from './json.ts';

export function renderPaymentMethod(_ctx: Context, pm: PaymentMethodRecord): Json {
  return {
    id: pm.id,
    object: 'payment_method',
    allow_redisplay: 'unspecified',
    billing_details: {
      address: {
        city: null,
        country: null,
        line1: null,
        line2: null,
        postal_code: pm.billingDetails.postalCode,
        state: null,
      },
      email: pm.billingDetails.email,
      name: pm.billingDetails.name,
      phone: null,
      tax_id: null,
    },
    card: {
      brand: pm.card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: pm.card.country,
      display_brand: pm.card.brand,
      exp_month: pm.card.expMonth,
      exp_year: pm.card.expYear,
      fingerprint: pm.card.fingerprint,
      funding: pm.card.funding,
      generated_from: null,
      last4: pm.card.last4,
      networks: { available: [pm.card.brand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: pm.card.wallet ? { type: pm.card.wallet, dynamic_last4: null, [pm.card.wallet]: {} } : null,
    },
    created: pm.created,
    customer: pm.customer,
    customer_account: null,
    livemode: false,
    metadata: pm.metadata,
    type: 'card',
  };
}

function renderLastError(ctx: Context, e: LastError | null, kind: 'payment' | 'setup'): Json | null {
  if (!e) return null;
  const pm = e.paymentMethod ? ctx.store.paymentMethods.find(e.paymentMethod) : undefined;
  return {
    type: e.type,
    code: e.code,
    ...(e.declineCode ? { decline_code: e.declineCode } : {}),
    doc_url: `https://stripe.com/docs/error-codes/${e.code.replace(/_/g, '-')}`,
    message: e.message,
    ...(pm ? { payment_method: renderPaymentMethod(ctx, pm) } : {}),
    ...(kind === 'payment' && e.type === 'card_error' ? { charge: null } : {}),
  };
}

function renderNextAction(na: NextAction | null): Json | null {
  if (!na) return null;
  return {
    type: 'use_stripe_sdk',
    use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: na.url, source: 'src_local_3ds' },
  };
}

export function renderSetupIntent(ctx: Context, si: SetupIntentRecord): Json {
  return {
    id: si.id,
    object: 'setup_intent',
    allowed_payment_method_types: si.paymentMethodTypes,
    application: null,
    automatic_payment_methods: apm(si),
    cancellation_reason: si.cancellationReason,
    client_secret: si.clientSecret,
    created: si.created,
    customer: si.customer,
    customer_account: null,
    description: si.description,
    excluded_payment_method_types: null,
    flow_directions: null,
    last_setup_error: renderLastError(ctx, si.lastError, 'setup'),
    latest_attempt: null,
    livemode: false,
    mandate: null,
    metadata: si.metadata,
    next_action: renderNextAction(si.nextAction),
    on_behalf_of: null,
    payment_method: si.paymentMethod,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { mandate_options: null, network: null, request_three_d_secure: 'automatic' },
    },
    payment_method_types: si.paymentMethodTypes,
    single_use_mandate: null,
    status: si.status,
    usage: si.usage,
  };
}

export function renderPaymentIntent(ctx: Context, pi: PaymentIntentRecord): Json {
  return {
    id: pi.id,
    object: 'payment_intent',
    allowed_payment_method_types: pi.paymentMethodTypes,
    amount: pi.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: pi.amountReceived,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: apm(pi),
    canceled_at: pi.canceledAt,
    cancellation_reason: pi.cancellationReason,
    capture_method: 'automatic',
    client_secret: pi.clientSecret,
    confirmation_method: 'automatic',
    created: pi.created,
    currency: pi.currency,
    customer: pi.customer,
    customer_account: null,
    description: pi.description,
    excluded_payment_method_types: null,
    last_payment_error: renderLastError(ctx, pi.lastError, 'payment'),
    latest_charge: pi.latestCharge,
    livemode: false,
    metadata: pi.metadata,
    next_action: renderNextAction(pi.nextAction),
    on_behalf_of: null,
    payment_method: pi.paymentMethod,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' },
    },
    payment_method_types: pi.paymentMethodTypes,
    processing: null,
    receipt_email: pi.receiptEmail,
    review: null,
    setup_future_usage: pi.setupFutureUsage,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: pi.status,
    transfer_data: null,
    transfer_group: null,
  };
}

export function renderCharge(_ctx: Context, ch: ChargeRecord): Json {
  const paid = ch.status === 'succeeded';
  return {
    id: ch.id,
    object: 'charge',
    amount: ch.amount,
    amount_captured: paid ? ch.amount : 0,
    amount_refunded: 0,
    captured: paid,
    created: ch.created,
    currency: ch.currency,
    customer: ch.customer,
    disputed: false,
    failure_code: ch.failureCode,
    failure_message: ch.failureMessage,
    livemode: false,
    metadata: {},
    outcome: paid
      ? {
          network_status: 'approved_by_network',
          reason: null,
          risk_level: 'normal',
          seller_message: 'Payment complete.',
          type: 'authorized',
        }
      : {
          network_status: 'declined_by_network',
          reason: ch.declineCode,
          risk_level: 'normal',
          seller_message: 'The bank did not return any further details with this decline.',
          type: 'issuer_declined',
        },
    paid,
    payment_intent: ch.paymentIntent,
    payment_method: ch.paymentMethod,
    refunded: false,
    status: ch.status,
  };
}

function apm(intent: { automaticPaymentMethods?: AutomaticPaymentMethods | null }) {
  const a = intent.automaticPaymentMethods;
  return a ? { allow_redirects: a.allowRedirects, enabled: a.enabled } : null;
}
