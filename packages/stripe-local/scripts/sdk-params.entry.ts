/**
 * Which parameter type of the pinned `stripe` SDK each stripe-local endpoint takes (read by
 * sdk-params.generate.ts; never imported at run time).
 */
import type Stripe from 'stripe';

export interface Endpoints {
  'post /v1/customers': Stripe.CustomerCreateParams;
  'get /v1/customers/:id': Stripe.CustomerRetrieveParams;
  'post /v1/customers/:id': Stripe.CustomerUpdateParams;
  'delete /v1/customers/:id': Stripe.CustomerDeleteParams;
  'get /v1/customers': Stripe.CustomerListParams;
  'get /v1/customers/:customer/payment_methods': Stripe.CustomerListPaymentMethodsParams;
  'post /v1/products': Stripe.ProductCreateParams;
  'get /v1/products/:id': Stripe.ProductRetrieveParams;
  'post /v1/products/:id': Stripe.ProductUpdateParams;
  'get /v1/products': Stripe.ProductListParams;
  'post /v1/prices': Stripe.PriceCreateParams;
  'get /v1/prices/:id': Stripe.PriceRetrieveParams;
  'post /v1/prices/:id': Stripe.PriceUpdateParams;
  'get /v1/prices': Stripe.PriceListParams;
  'post /v1/coupons': Stripe.CouponCreateParams;
  'get /v1/coupons/:id': Stripe.CouponRetrieveParams;
  'post /v1/payment_methods': Stripe.PaymentMethodCreateParams;
  'get /v1/payment_methods/:id': Stripe.PaymentMethodRetrieveParams;
  'post /v1/payment_methods/:id': Stripe.PaymentMethodUpdateParams;
  'post /v1/payment_methods/:id/attach': Stripe.PaymentMethodAttachParams;
  'post /v1/payment_methods/:id/detach': Stripe.PaymentMethodDetachParams;
  'get /v1/payment_methods': Stripe.PaymentMethodListParams;
  'post /v1/setup_intents': Stripe.SetupIntentCreateParams;
  'get /v1/setup_intents/:id': Stripe.SetupIntentRetrieveParams;
  'post /v1/setup_intents/:id': Stripe.SetupIntentUpdateParams;
  'post /v1/setup_intents/:id/confirm': Stripe.SetupIntentConfirmParams;
  'post /v1/setup_intents/:id/cancel': Stripe.SetupIntentCancelParams;
  'get /v1/setup_intents': Stripe.SetupIntentListParams;
  'post /v1/payment_intents': Stripe.PaymentIntentCreateParams;
  'get /v1/payment_intents/:id': Stripe.PaymentIntentRetrieveParams;
  'post /v1/payment_intents/:id': Stripe.PaymentIntentUpdateParams;
  'post /v1/payment_intents/:id/confirm': Stripe.PaymentIntentConfirmParams;
  'post /v1/payment_intents/:id/cancel': Stripe.PaymentIntentCancelParams;
  'get /v1/payment_intents': Stripe.PaymentIntentListParams;
  'post /v1/subscriptions': Stripe.SubscriptionCreateParams;
  'get /v1/subscriptions/:id': Stripe.SubscriptionRetrieveParams;
  'post /v1/subscriptions/:id': Stripe.SubscriptionUpdateParams;
  'delete /v1/subscriptions/:id': Stripe.SubscriptionCancelParams;
  'get /v1/subscriptions': Stripe.SubscriptionListParams;
  'post /v1/invoices/create_preview': Stripe.InvoiceCreatePreviewParams;
  'get /v1/invoices/:id': Stripe.InvoiceRetrieveParams;
  'post /v1/invoices/:id': Stripe.InvoiceUpdateParams;
  'get /v1/invoices': Stripe.InvoiceListParams;
  'post /v1/invoices/:id/pay': Stripe.InvoicePayParams;
  'post /v1/invoices/:id/void': Stripe.InvoiceVoidInvoiceParams;
  'post /v1/invoices/:id/mark_uncollectible': Stripe.InvoiceMarkUncollectibleParams;
  'get /v1/invoice_payments': Stripe.InvoicePaymentListParams;
  'get /v1/invoice_payments/:id': Stripe.InvoicePaymentRetrieveParams;
  'post /v1/checkout/sessions': Stripe.Checkout.SessionCreateParams;
  'get /v1/checkout/sessions/:id': Stripe.Checkout.SessionRetrieveParams;
  'get /v1/checkout/sessions/:id/line_items': Stripe.Checkout.SessionListLineItemsParams;
  'post /v1/checkout/sessions/:id/expire': Stripe.Checkout.SessionExpireParams;
  'get /v1/checkout/sessions': Stripe.Checkout.SessionListParams;
  'post /v1/billing_portal/sessions': Stripe.BillingPortal.SessionCreateParams;
  'get /v1/events/:id': Stripe.EventRetrieveParams;
  'get /v1/events': Stripe.EventListParams;
  'post /v1/webhook_endpoints': Stripe.WebhookEndpointCreateParams;
  'get /v1/webhook_endpoints/:id': Stripe.WebhookEndpointRetrieveParams;
  'post /v1/webhook_endpoints/:id': Stripe.WebhookEndpointUpdateParams;
  'delete /v1/webhook_endpoints/:id': Stripe.WebhookEndpointDeleteParams;
  'get /v1/webhook_endpoints': Stripe.WebhookEndpointListParams;
  'post /v1/test_helpers/test_clocks': Stripe.TestHelpers.TestClockCreateParams;
  'get /v1/test_helpers/test_clocks/:id': Stripe.TestHelpers.TestClockRetrieveParams;
  'get /v1/test_helpers/test_clocks': Stripe.TestHelpers.TestClockListParams;
  'post /v1/test_helpers/test_clocks/:id/advance': Stripe.TestHelpers.TestClockAdvanceParams;
  'delete /v1/test_helpers/test_clocks/:id': Stripe.TestHelpers.TestClockDeleteParams;
}
