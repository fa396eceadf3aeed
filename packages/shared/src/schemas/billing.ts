// One file: the billing requests and answers, shared by the API's routes and the web's forms and pages.
import { z } from 'zod';
import { MSG } from '../messages.ts';
import { opaqueText } from './text.ts';
import { MAX_ID } from './ids.ts';

/**
 * Request and answer schemas of the billing calls (accounts-plans-payment 7; apps/api/BILLING-API.md).
 * Tenant calls live under /api/t/:tenant, the ones marked "base" under /api. The API validates every
 * request with these and presents every answer through them; the web forms take their rules and
 * messages from them and parse every answer with them.
 *
 * Amounts: the server computes every amount from the plan and the quantity. An `amount` sent by the
 * browser (the spec's checkout and trial payloads carry one) is accepted for compatibility and ignored.
 * URLs: every return, success and cancel URL is either a path ('/success/subscribe') or an absolute URL
 * on the portal's own origin; anything else answers 400.
 */

export const BILLING_LIMITS = {
  /** Seats on one subscription. */
  maxQuantity: 100_000,
  /** Blocks of 1,000 additional views in one purchase. */
  maxViewBlocks: 1_000,
  url: 2_000,
  stripeId: 255,
} as const;

/** Views in one purchased block. */
export const VIEWS_PER_BLOCK = 1_000;

const planId = z.number({ error: MSG.choosePlan }).int().min(1).max(MAX_ID);

/** A positive integer (or its decimal string, as antd's InputNumber may send it). */
const positiveInteger = (max: number) =>
  z
    .union([
      z.number({ error: MSG.positiveIntegers }),
      z
        .string()
        .trim()
        .regex(/^\d{1,9}$/, { error: MSG.positiveIntegers })
        .transform(Number),
    ])
    .pipe(
      z
        .number({ error: MSG.positiveIntegers })
        .int({ error: MSG.positiveIntegers })
        .min(1, { error: MSG.positiveIntegers })
        .max(max, { error: MSG.positiveIntegers }),
    );

/** Seats: a positive integer; the server also requires at least the plan's userLimit. */
export const seatQuantity = positiveInteger(BILLING_LIMITS.maxQuantity);

/** A return/success/cancel URL: a path on the portal or an absolute http(s) URL (the server checks its origin). */
export const returnUrl = opaqueText(BILLING_LIMITS.url).pipe(
  z
    .string()
    .min(1)
    .refine((value) => (value.startsWith('/') && !value.startsWith('//')) || /^https?:\/\//i.test(value), {
      error: 'Must be a path or an http(s) URL on this portal.',
    }),
);

/** A Stripe object id as Stripe prints it ('seti_...', 'pm_...', 'in_...', 'sub_...'). */
const stripeId = (prefix?: string) =>
  z
    .string()
    .max(BILLING_LIMITS.stripeId)
    .regex(prefix ? new RegExp(`^${prefix}_[A-Za-z0-9_]+$`) : /^[a-z]+_[A-Za-z0-9_]+$/, {
      error: 'Not a valid id.',
    });

// ---- requests --------------------------------------------------------------------------------------

/**
 * POST /checkout/create: hosted Checkout for an unsubscribed tenant (a subscription on the plan).
 * Answers CheckoutUrl. `amount`, `year`, `displayType`, `billedAnnually`, `dynamicQuantity` and `name`
 * are the spec's payload; the plan decides them, so they are ignored.
 */
export const CheckoutCreate = z.strictObject({
  planId,
  quantity: seatQuantity.optional(),
  successUrl: returnUrl,
  cancelUrl: returnUrl.optional(),
  amount: z.unknown().optional(),
  year: z.unknown().optional(),
  displayType: z.unknown().optional(),
  billedAnnually: z.unknown().optional(),
  dynamicQuantity: z.unknown().optional(),
  name: z.unknown().optional(),
});
export type CheckoutCreate = z.input<typeof CheckoutCreate>;

/** POST /subscription/change: plan change through the billing portal (subscription_update_confirm). */
export const SubscriptionChange = z.strictObject({
  /** The new plan's id. */
  id: planId,
  quantity: seatQuantity.optional(),
  returnUrl,
});
export type SubscriptionChange = z.input<typeof SubscriptionChange>;

/** POST /subscription/detail (billing portal home) and POST /subscription/cancel_plan (portal cancel flow). */
export const PortalRequest = z.strictObject({ returnUrl });
export type PortalRequest = z.input<typeof PortalRequest>;

/** POST /subscription/create_views: a one-off Checkout payment of `quantity` blocks of 1,000 views. */
export const BuyViews = z.strictObject({
  quantity: positiveInteger(BILLING_LIMITS.maxViewBlocks),
  successUrl: returnUrl,
  cancelUrl: returnUrl,
});
export type BuyViews = z.input<typeof BuyViews>;

/** The Buy Views modal's field (minimum 1, default 1). */
export const BuyViewsForm = z.object({ quantity: positiveInteger(BILLING_LIMITS.maxViewBlocks) });

/** POST /api/subscription/setup_intents (base): a setup intent for the caller's tenant's customer. */
export const SetupIntentCreate = z.strictObject({});
export type SetupIntentCreate = z.input<typeof SetupIntentCreate>;

/** POST /subscription/setup_intents/cancel */
export const SetupIntentCancel = z.strictObject({ intent: stripeId('seti') });
export type SetupIntentCancel = z.input<typeof SetupIntentCancel>;

/** POST /subscription/setup_intents/update */
export const SetupIntentUpdate = z.strictObject({
  setup_intent: stripeId('seti'),
  payment_method_id: stripeId('pm'),
});
export type SetupIntentUpdate = z.input<typeof SetupIntentUpdate>;

/** POST /subscription/setup_intents/confirm */
export const SetupIntentConfirm = z.strictObject({
  payment_method_id: stripeId('pm'),
  setup_intent: stripeId('seti'),
});
export type SetupIntentConfirm = z.input<typeof SetupIntentConfirm>;

export const PAYMENT_BEHAVIORS = ['default_incomplete', 'allow_incomplete', 'error_if_incomplete'] as const;

/**
 * POST /subscription/createtrials (tenant) and POST /api/subscription/createtrials/guest (base, the
 * session of a just-registered visitor). While the tenant's trial has not passed it creates the trial
 * subscription (status `trialing`); after it, the card checkout's subscription (status `incomplete`,
 * payment_behavior default_incomplete) whose first invoice's payment intent the browser confirms.
 * `paymentId` is the payment method (pm_...) the setup intent or card element produced.
 */
export const TrialCreate = z.strictObject({
  planId,
  paymentId: stripeId('pm'),
  quantity: seatQuantity.optional(),
  updateCustomer: z.boolean().optional(),
  attachPaymentMethod: z.boolean().optional(),
  paymentBehavior: z.enum(PAYMENT_BEHAVIORS).optional(),
  createCustomer: z.boolean().optional(),
  amount: z.unknown().optional(),
});
export type TrialCreate = z.input<typeof TrialCreate>;

/**
 * POST /subscription/payment-intent: the card checkout in one call (accounts 4, steps 1 to 4): cancel
 * any existing subscription, create the incomplete one on the plan, and answer its first invoice's
 * payment intent. A repeat with the same plan and quantity answers the same pending payment.
 */
export const PaymentIntentCreate = z.strictObject({
  planId,
  quantity: seatQuantity.optional(),
  amount: z.unknown().optional(),
});
export type PaymentIntentCreate = z.input<typeof PaymentIntentCreate>;

/** POST /subscription/payment-intent/update: sets the card on the pending payment intent. */
export const PaymentIntentUpdate = z.strictObject({
  payment_intent: stripeId('pi'),
  payment_method_id: stripeId('pm'),
});
export type PaymentIntentUpdate = z.input<typeof PaymentIntentUpdate>;

/** POST /subscription/latest-invoice/payment-invoice: the payment intent of one of the tenant's invoices. */
export const LatestInvoicePayment = z.strictObject({ invoiceId: stripeId('in') });
export type LatestInvoicePayment = z.input<typeof LatestInvoicePayment>;

/** POST /subscription/cancel_subscription: cancels the tenant's subscription now (card checkout step 1). */
export const CancelSubscription = z.strictObject({ subscriptionId: stripeId('sub') });
export type CancelSubscription = z.input<typeof CancelSubscription>;

/**
 * POST /subscription/preview: what a plan or seat change (or a first subscription) would charge now,
 * without changing anything (Stripe's upcoming-invoice preview). `planId` defaults to the current plan,
 * `quantity` to the current seats (for a plan change) or the plan's userLimit.
 */
export const ChangePreview = z.strictObject({
  planId: planId.optional(),
  quantity: seatQuantity.optional(),
});
export type ChangePreview = z.input<typeof ChangePreview>;

/**
 * POST /subscription/change-plan: moves the live subscription to another plan (and seats) as a Stripe
 * subscription update with payment_behavior=pending_if_incomplete: the change applies only once its
 * invoice is paid. Ends a trial (the new plan is charged now). Owner only. Answers PlanChangeView.
 */
export const PlanChange = z.strictObject({
  planId,
  quantity: seatQuantity.optional(),
});
export type PlanChange = z.input<typeof PlanChange>;

/**
 * POST /subscription/seats: sets the live subscription's seats (quantity) within the plan's rules: at
 * least the plan's userLimit and the users the tenant has, at most BILLING_LIMITS.maxQuantity; a plan
 * without a dynamic quantity has fixed seats (409). Prorated now. Owner only. Answers PlanChangeView.
 */
export const SeatsChange = z.strictObject({ quantity: seatQuantity });
export type SeatsChange = z.input<typeof SeatsChange>;

/** GET /subscription/invoices?limit=&startingAfter=: the tenant's invoices, newest first. */
export const InvoiceListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(24),
  startingAfter: stripeId('in').optional(),
});
export type InvoiceListQuery = z.input<typeof InvoiceListQuery>;

// ---- answers ---------------------------------------------------------------------------------------

/** A URL to send the browser to (Checkout, billing portal). */
export const CheckoutUrl = z.object({ url: z.string() });
export type CheckoutUrl = z.infer<typeof CheckoutUrl>;

export const SETUP_INTENT_STATUSES = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'canceled',
  'succeeded',
] as const;

/** Setup intent: id, status, payment_method, client_secret (accounts 3). */
export const SetupIntentView = z.object({
  id: z.string(),
  status: z.enum(SETUP_INTENT_STATUSES),
  payment_method: z.string().nullable(),
  client_secret: z.string().nullable(),
});
export type SetupIntentView = z.infer<typeof SetupIntentView>;

export const PAYMENT_INTENT_STATUSES = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'requires_capture',
  'canceled',
  'succeeded',
] as const;

/** A payment intent the browser confirms with stripe.confirmCardPayment(client_secret). */
export const PaymentIntentView = z.object({
  id: z.string(),
  status: z.enum(PAYMENT_INTENT_STATUSES),
  client_secret: z.string().nullable(),
  /** Cents. */
  amount: z.number().int(),
  currency: z.string(),
  payment_method: z.string().nullable(),
});
export type PaymentIntentView = z.infer<typeof PaymentIntentView>;

export const STRIPE_SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
] as const;

export const LatestInvoiceView = z.object({
  id: z.string(),
  status: z.string().nullable(),
  /** Cents. */
  amount_due: z.number().int(),
  /**
   * The payment intent of the invoice (from the invoice's confirmation_secret and its payments, API
   * 2026-10-28); null when nothing is to be paid (a trial's zero invoice).
   */
  payment_intent: PaymentIntentView.nullable(),
});
export type LatestInvoiceView = z.infer<typeof LatestInvoiceView>;

/** Subscription response: id, status, latest_invoice (accounts 3). */
export const SubscriptionView = z.object({
  id: z.string(),
  status: z.enum(STRIPE_SUBSCRIPTION_STATUSES),
  planId: z.number().int(),
  quantity: z.number().int(),
  /** Unix seconds. */
  trial_end: z.number().int().nullable(),
  latest_invoice: LatestInvoiceView.nullable(),
});
export type SubscriptionView = z.infer<typeof SubscriptionView>;

/** POST /subscription/payment-intent: the pending subscription and the payment intent to confirm. */
export const CardCheckoutView = z.object({
  subscriptionId: z.string(),
  invoiceId: z.string(),
  paymentIntent: PaymentIntentView,
});
export type CardCheckoutView = z.infer<typeof CardCheckoutView>;

/** POST /subscription/cancel_subscription */
export const CancelSubscriptionView = z.object({ status: z.enum(STRIPE_SUBSCRIPTION_STATUSES) });
export type CancelSubscriptionView = z.infer<typeof CancelSubscriptionView>;

/** POST /api/stripe/webhook */
export const WebhookAnswer = z.object({
  received: z.literal(true),
  /** applied; duplicate (the event id was seen before); ignored (a type or customer we do not act on). */
  outcome: z.enum(['applied', 'duplicate', 'ignored']),
});

/**
 * GET /api/billing/config (base, no login): what the browser needs to load Stripe.js. publishableKey is
 * null when card payment is not configured.
 */
export const BillingConfigView = z.object({
  publishableKey: z.string().nullable(),
  stripeJsUrl: z.string(),
});
export type BillingConfigView = z.infer<typeof BillingConfigView>;

// ---- money screens (issue 15) -------------------------------------------------------------------------

export const BILLING_INTERVALS = ['month', 'year'] as const;

/** A charge Stripe will make: when (unix seconds) and how much (cents). */
export const UpcomingCharge = z.object({
  date: z.number().int().nullable(),
  /** Cents: what will be charged (the invoice's amount due, after any credit). */
  amount: z.number().int(),
  /** Cents of credit (unused time of an earlier plan) taken off the invoice's charges; 0 when none. */
  credit: z.number().int().min(0),
  currency: z.string(),
});
export type UpcomingCharge = z.infer<typeof UpcomingCharge>;

/**
 * A payment that waits for the customer (3-D Secure, or a declined card on a change): the invoice,
 * Stripe's hosted page to pay it, and the payment intent the web confirms with Stripe.js at once.
 */
export const PaymentActionView = z.object({
  invoiceId: z.string(),
  /** Cents. */
  amountDue: z.number().int(),
  currency: z.string(),
  hostedInvoiceUrl: z.string().nullable(),
  paymentIntent: PaymentIntentView.nullable(),
});
export type PaymentActionView = z.infer<typeof PaymentActionView>;

/**
 * GET /subscription/summary: the plan page's facts, read from Stripe (the subscription and its
 * upcoming-invoice preview). `seats` is the subscription's quantity; `pricePerPeriod` what those seats
 * cost per interval; `nextCharge` the next invoice (null when none will come: cancelled, no plan);
 * `pendingChange` a plan or seat change waiting for its payment (`paymentAction`); `canManage` whether
 * the caller may make the money calls (the owner).
 */
export const SubscriptionSummaryView = z.object({
  state: z.enum(['not_subscribed', 'trial', 'subscribed', 'cancelled', 'deactivated', 'payment_failed']),
  subscriptionId: z.string().nullable(),
  stripeStatus: z.enum(STRIPE_SUBSCRIPTION_STATUSES).nullable(),
  planId: z.number().int().nullable(),
  planName: z.string().nullable(),
  interval: z.enum(BILLING_INTERVALS).nullable(),
  seats: z.number().int().nullable(),
  /** The fewest seats allowed now: the plan's userLimit and the tenant's users. */
  minSeats: z.number().int().nullable(),
  maxSeats: z.number().int().nullable(),
  /** Whether the plan sells extra seats (dynamic quantity). */
  seatsAdjustable: z.boolean(),
  /** Cents per interval for `seats`. */
  pricePerPeriod: z.number().int().nullable(),
  currency: z.string(),
  /** Unix seconds. */
  trialEnd: z.number().int().nullable(),
  cancelAt: z.number().int().nullable(),
  currentPeriodEnd: z.number().int().nullable(),
  nextCharge: UpcomingCharge.nullable(),
  /** Whether the tenant (or its card) already had its free trial: new plans are charged at once. */
  trialUsed: z.boolean(),
  pendingChange: z.object({ planId: z.number().int().nullable(), seats: z.number().int() }).nullable(),
  paymentAction: PaymentActionView.nullable(),
  canManage: z.boolean(),
});
export type SubscriptionSummaryView = z.infer<typeof SubscriptionSummaryView>;

/** One line of a preview (cents; negative for a credit). */
export const PreviewLineView = z.object({
  description: z.string().nullable(),
  amount: z.number().int(),
  proration: z.boolean(),
  /** Unix seconds. */
  periodStart: z.number().int().nullable(),
  periodEnd: z.number().int().nullable(),
});
export type PreviewLineView = z.infer<typeof PreviewLineView>;

/**
 * POST /subscription/preview: what the change costs. `amountDueNow` is charged when it is confirmed
 * (proration lines and, when the trial ends with it, the new plan's first period); `trialEnds` says the
 * trial ends and the plan is charged now; `direction` compares the price per month of the new and the
 * current order (new: no live subscription; same: nothing changes).
 */
export const ChangePreviewView = z.object({
  planId: z.number().int(),
  seats: z.number().int(),
  interval: z.enum(BILLING_INTERVALS),
  currency: z.string(),
  amountDueNow: z.number().int(),
  /** Sum of the proration lines (credit for unused time and charge for the remaining time). */
  prorationAmount: z.number().int(),
  trialEnds: z.boolean(),
  /** True when the tenant gets the free trial with this order (no charge now). */
  withTrial: z.boolean(),
  direction: z.enum(['new', 'upgrade', 'downgrade', 'same']),
  pricePerPeriod: z.number().int(),
  lines: z.array(PreviewLineView),
  nextCharge: UpcomingCharge.nullable(),
});
export type ChangePreviewView = z.infer<typeof ChangePreviewView>;

/**
 * POST /subscription/change-plan and POST /subscription/seats:
 * - `applied`: paid (or nothing due): the new plan or seats are in force now;
 * - `requires_action`: 3-D Secure: the web runs Stripe.js on `paymentAction.paymentIntent.client_secret`
 *   at once; the change applies when Stripe says the invoice is paid (webhook), the current plan stays
 *   until then; if the customer leaves, an e-mail with `hostedInvoiceUrl` asks them to finish;
 * - `requires_payment_method`: the card was declined; `message` says why (shown under the card field,
 *   never mailed); the current plan stays; the web may confirm the same intent with another card.
 */
export const PlanChangeView = z.object({
  outcome: z.enum(['applied', 'requires_action', 'requires_payment_method']),
  subscription: SubscriptionView,
  paymentAction: PaymentActionView.nullable(),
  message: z.string().nullable(),
});
export type PlanChangeView = z.infer<typeof PlanChangeView>;

export const INVOICE_STATUSES = ['draft', 'open', 'paid', 'uncollectible', 'void'] as const;

/** One invoice of the billing history (amounts in cents, times in unix seconds). */
export const InvoiceView = z.object({
  id: z.string(),
  number: z.string().nullable(),
  created: z.number().int(),
  periodStart: z.number().int().nullable(),
  periodEnd: z.number().int().nullable(),
  total: z.number().int(),
  amountDue: z.number().int(),
  amountPaid: z.number().int(),
  currency: z.string(),
  status: z.enum(INVOICE_STATUSES).nullable(),
  description: z.string().nullable(),
  /**
   * The invoice's hosted page. For an open invoice only when it is `payable`: a left card form's or a
   * superseded change's invoice is never offered for payment (it is voided).
   */
  hostedInvoiceUrl: z.string().nullable(),
  invoicePdf: z.string().nullable(),
  /** Whether the customer should pay it now: an open invoice of the plan in force that failed (past_due). */
  payable: z.boolean(),
});
export type InvoiceView = z.infer<typeof InvoiceView>;

/** GET /subscription/invoices */
export const InvoiceListView = z.object({ invoices: z.array(InvoiceView), hasMore: z.boolean() });
export type InvoiceListView = z.infer<typeof InvoiceListView>;
