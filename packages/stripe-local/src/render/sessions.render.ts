import type { Context } from '../core/context.ts';
import type { CheckoutSessionRecord, PortalSessionRecord } from '../core/records.ts';
import { renderPrice } from './catalog.render.ts';
import { list, type Json } from './json.ts';

export function renderCheckoutSession(ctx: Context, cs: CheckoutSessionRecord): Json {
  const amounts = cs.lines.map((l) => {
    const price = ctx.store.prices.find(l.price);
    return (price?.unitAmount ?? 0) * l.quantity;
  });
  const total = amounts.reduce((a, b) => a + b, 0);
  const customer = cs.customer ? ctx.store.customers.find(cs.customer) : undefined;
  return {
    id: cs.id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: cs.paymentMethodTypes,
    amount_subtotal: cs.mode === 'setup' ? null : total,
    amount_total: cs.mode === 'setup' ? null : total,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: cs.cancelUrl,
    client_reference_id: cs.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: cs.created,
    currency: cs.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer: cs.customer,
    customer_account: null,
    customer_creation: cs.customer ? null : 'if_required',
    customer_details:
      cs.status === 'complete'
        ? {
            address: null,
            email: customer?.email ?? cs.customerEmail,
            name: customer?.name ?? null,
            phone: null,
            tax_exempt: 'none',
            tax_ids: [],
          }
        : cs.customerEmail
          ? {
              address: null,
              email: cs.customerEmail,
              name: null,
              phone: null,
              tax_exempt: null,
              tax_ids: null,
            }
          : null,
    customer_email: cs.customerEmail,
    discounts: [],
    expires_at: cs.expiresAt,
    integration_identifier: null,
    invoice: cs.invoice,
    invoice_creation:
      cs.mode === 'payment'
        ? {
            enabled: cs.invoiceCreation?.enabled ?? false,
            invoice_data: {
              description: cs.invoiceCreation?.description ?? null,
              metadata: cs.invoiceCreation?.metadata ?? {},
            },
          }
        : null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: cs.metadata,
    mode: cs.mode,
    origin_context: null,
    payment_intent: cs.paymentIntent,
    payment_link: null,
    payment_method_collection: cs.mode === 'payment' ? null : 'always',
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: 'automatic' } },
    payment_method_types: cs.paymentMethodTypes,
    payment_status: cs.paymentStatus,
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: cs.setupIntent,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: cs.status,
    submit_type: null,
    subscription: cs.subscription,
    success_url: cs.successUrl,
    total_details: cs.mode === 'setup' ? null : { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted',
    url: cs.status === 'open' ? cs.url : null,
    wallet_options: null,
  };
}

export function renderCheckoutLineItems(ctx: Context, cs: CheckoutSessionRecord): Json {
  return list(
    `/v1/checkout/sessions/${cs.id}/line_items`,
    cs.lines.map((l) => {
      const price = ctx.store.prices.get(l.price);
      const product = ctx.store.products.find(price.product);
      const amount = (price.unitAmount ?? 0) * l.quantity;
      return {
        id: l.id,
        object: 'item',
        amount_discount: 0,
        amount_subtotal: amount,
        amount_tax: 0,
        amount_total: amount,
        currency: price.currency,
        description: product?.name ?? null,
        price: renderPrice(ctx, price),
        quantity: l.quantity,
      };
    }),
  );
}

export function renderPortalSession(_ctx: Context, ps: PortalSessionRecord): Json {
  return {
    id: ps.id,
    object: 'billing_portal.session',
    configuration: 'bpc_stripe_local_default',
    created: ps.created,
    customer: ps.customer,
    customer_account: null,
    flow: ps.flow
      ? {
          after_completion: {
            hosted_confirmation:
              ps.flow.afterCompletion.type === 'hosted_confirmation' ? { custom_message: null } : null,
            redirect:
              ps.flow.afterCompletion.type === 'redirect'
                ? { return_url: ps.flow.afterCompletion.returnUrl }
                : null,
            type: ps.flow.afterCompletion.type,
          },
          subscription_cancel:
            ps.flow.type === 'subscription_cancel'
              ? { retention: null, subscription: ps.flow.subscription }
              : null,
          subscription_update:
            ps.flow.type === 'subscription_update' ? { subscription: ps.flow.subscription } : null,
          subscription_update_confirm:
            ps.flow.type === 'subscription_update_confirm'
              ? { discounts: null, items: ps.flow.items, subscription: ps.flow.subscription }
              : null,
          type: ps.flow.type,
        }
      : null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: ps.returnUrl,
    url: ps.url,
  };
}
