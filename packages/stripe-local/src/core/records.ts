// One file: every record stripe-local keeps, side by side as Stripe's objects refer to each other.
/**
 * What the server keeps. These are internal records; `render/` turns each into the pinned API version's
 * object shape. Times are Unix seconds.
 */
export type Metadata = Record<string, string>;

export interface CustomerRecord {
  id: string;
  created: number;
  email: string | null;
  name: string | null;
  description: string | null;
  phone: string | null;
  metadata: Metadata;
  testClock: string | null;
  defaultPaymentMethod: string | null;
  deleted: boolean;
  /**
   * Pending invoice items (a cancellation's proration credit, a credit left over from an invoice that
   * came out negative): added to the customer's next invoice, as Stripe does with pending items.
   */
  pendingLines?: InvoiceLine[];
}

export interface ProductRecord {
  id: string;
  created: number;
  updated: number;
  name: string;
  description: string | null;
  active: boolean;
  metadata: Metadata;
  defaultPrice: string | null;
}

export interface Tier {
  upTo: number | null;
  flatAmount: number | null;
  unitAmount: number | null;
}

export interface PriceRecord {
  id: string;
  created: number;
  product: string;
  active: boolean;
  currency: string;
  unitAmount: number | null;
  recurring: { interval: Interval; intervalCount: number } | null;
  lookupKey: string | null;
  nickname: string | null;
  metadata: Metadata;
  billingScheme: 'per_unit' | 'tiered';
  tiersMode: 'graduated' | 'volume' | null;
  tiers: Tier[] | null;
}

export type Interval = 'day' | 'week' | 'month' | 'year';

export interface CouponRecord {
  id: string;
  created: number;
  name: string | null;
  percentOff: number | null;
  amountOff: number | null;
  currency: string | null;
  duration: 'once' | 'repeating' | 'forever';
  durationInMonths: number | null;
  metadata: Metadata;
  timesRedeemed: number;
}

export type CardBehaviour =
  'succeed' | 'authenticate_unless_setup' | 'authenticate_always' | 'decline_on_charge' | 'decline_always';

export interface PaymentMethodRecord {
  id: string;
  created: number;
  customer: string | null;
  metadata: Metadata;
  billingDetails: { name: string | null; email: string | null; postalCode: string | null };
  card: {
    brand: string;
    last4: string;
    expMonth: number;
    expYear: number;
    funding: 'credit' | 'debit' | 'prepaid';
    country: string;
    fingerprint: string;
    behaviour: CardBehaviour;
    declineCode: string | null;
    wallet: 'apple_pay' | 'google_pay' | null;
  };
  /** Authenticated for off-session use (a SetupIntent or an on-session payment with 3-D Secure passed). */
  setUpForOffSession: boolean;
}

export interface LastError {
  type: 'card_error' | 'invalid_request_error';
  code: string;
  declineCode: string | null;
  message: string;
  paymentMethod: string | null;
}

export interface NextAction {
  /** The URL of this server's 3-D Secure challenge for the intent. */
  url: string;
}

export interface SetupIntentRecord {
  id: string;
  created: number;
  clientSecret: string;
  customer: string | null;
  paymentMethod: string | null;
  paymentMethodTypes: string[];
  /** automatic_payment_methods (only cards exist here, so it never adds a type). */
  automaticPaymentMethods?: AutomaticPaymentMethods | null;
  usage: 'off_session' | 'on_session';
  metadata: Metadata;
  description: string | null;
  status:
    | 'requires_payment_method'
    | 'requires_confirmation'
    | 'requires_action'
    | 'processing'
    | 'canceled'
    | 'succeeded';
  nextAction: NextAction | null;
  lastError: LastError | null;
  cancellationReason: string | null;
}

export interface PaymentIntentRecord {
  id: string;
  created: number;
  clientSecret: string;
  amount: number;
  amountReceived: number;
  currency: string;
  customer: string | null;
  paymentMethod: string | null;
  paymentMethodTypes: string[];
  /** automatic_payment_methods (only cards exist here, so it never adds a type). */
  automaticPaymentMethods?: AutomaticPaymentMethods | null;
  description: string | null;
  metadata: Metadata;
  receiptEmail: string | null;
  setupFutureUsage: 'off_session' | 'on_session' | null;
  status:
    | 'requires_payment_method'
    | 'requires_confirmation'
    | 'requires_action'
    | 'processing'
    | 'requires_capture'
    | 'canceled'
    | 'succeeded';
  nextAction: NextAction | null;
  lastError: LastError | null;
  latestCharge: string | null;
  canceledAt: number | null;
  cancellationReason: string | null;
  /** The invoice this intent pays (internal link: the pinned version shows it through invoice payments). */
  invoice: string | null;
  offSession: boolean;
}

export interface ChargeRecord {
  id: string;
  created: number;
  amount: number;
  currency: string;
  customer: string | null;
  paymentIntent: string;
  paymentMethod: string;
  status: 'succeeded' | 'failed';
  failureCode: string | null;
  failureMessage: string | null;
  declineCode: string | null;
}

export interface SubscriptionItemRecord {
  id: string;
  created: number;
  price: string;
  quantity: number;
  metadata: Metadata;
}

export type SubscriptionStatus =
  'incomplete' | 'incomplete_expired' | 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid' | 'paused';

export interface SubscriptionRecord {
  id: string;
  created: number;
  customer: string;
  status: SubscriptionStatus;
  items: SubscriptionItemRecord[];
  currency: string;
  startDate: number;
  billingCycleAnchor: number;
  periodStart: number;
  periodEnd: number;
  trialStart: number | null;
  trialEnd: number | null;
  trialWillEndSent: boolean;
  cancelAtPeriodEnd: boolean;
  cancelAt: number | null;
  canceledAt: number | null;
  endedAt: number | null;
  cancellationDetails: { comment: string | null; feedback: string | null; reason: string | null };
  defaultPaymentMethod: string | null;
  latestInvoice: string | null;
  metadata: Metadata;
  description: string | null;
  coupons: string[];
  /** Invoice lines (prorations) waiting for the next invoice. */
  pendingLines: InvoiceLine[];
  pendingSetupIntent: string | null;
  saveDefaultPaymentMethod: 'on_subscription' | 'off';
  /** trial_settings[end_behavior][missing_payment_method]: what a trial without a card becomes. */
  trialEndBehavior: 'cancel' | 'create_invoice' | 'pause';
  /** When an incomplete subscription expires (23 hours after creation). */
  incompleteExpiresAt: number | null;
  testClock: string | null;
  /** A change made with payment_behavior=pending_if_incomplete, waiting for its invoice to be paid. */
  pendingUpdate?: PendingUpdateRecord | null;
}

/**
 * Stripe's pending update: the subscription keeps what it had; `apply` is what it becomes when
 * `invoice` is paid. Discarded (and the invoice voided) at `expiresAt`, or when the invoice is voided.
 */
export interface PendingUpdateRecord {
  invoice: string;
  expiresAt: number;
  /**
   * `attempting` while the update call is still paying the invoice (a payment there applies the change
   * as if it had never been pending); `pending` once the call answered with the pending update.
   */
  state: 'attempting' | 'pending';
  /** What pending_update shows: only the values the update changes. */
  shown: { trialEnd: number | null; billingCycleAnchor: number | null; metadata: Metadata | null };
  apply: Pick<
    SubscriptionRecord,
    | 'items'
    | 'status'
    | 'trialEnd'
    | 'billingCycleAnchor'
    | 'periodStart'
    | 'periodEnd'
    | 'cancelAt'
    | 'metadata'
  >;
}

export interface InvoiceLine {
  id: string;
  amount: number;
  description: string;
  price: string | null;
  quantity: number;
  periodStart: number;
  periodEnd: number;
  proration: boolean;
  subscriptionItem: string | null;
}

export interface InvoiceRecord {
  id: string;
  created: number;
  number: string;
  customer: string;
  subscription: string | null;
  status: 'draft' | 'open' | 'paid' | 'uncollectible' | 'void';
  billingReason: 'subscription_create' | 'subscription_cycle' | 'subscription_update' | 'manual';
  currency: string;
  lines: InvoiceLine[];
  subtotal: number;
  discountAmount: number;
  total: number;
  amountPaid: number;
  attemptCount: number;
  attempted: boolean;
  nextPaymentAttempt: number | null;
  periodStart: number;
  periodEnd: number;
  paymentIntent: string | null;
  payments: string[];
  coupons: string[];
  defaultPaymentMethod: string | null;
  finalizedAt: number | null;
  paidAt: number | null;
  voidedAt: number | null;
  /** Stripe's auto_advance: false once automatic collection stopped (its subscription ended). */
  autoAdvance?: boolean;
  markedUncollectibleAt?: number | null;
  description?: string | null;
  metadata: Metadata;
  testClock: string | null;
}

export interface InvoicePaymentRecord {
  id: string;
  created: number;
  invoice: string;
  paymentIntent: string;
  amountRequested: number;
  amountPaid: number | null;
  currency: string;
  status: 'open' | 'paid' | 'canceled';
  paidAt: number | null;
  canceledAt: number | null;
}

export interface CheckoutLine {
  id: string;
  price: string;
  quantity: number;
}

export interface CheckoutSessionRecord {
  id: string;
  created: number;
  expiresAt: number;
  mode: 'payment' | 'setup' | 'subscription';
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'paid' | 'unpaid' | 'no_payment_required';
  customer: string | null;
  customerEmail: string | null;
  clientReferenceId: string | null;
  lines: CheckoutLine[];
  currency: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
  metadata: Metadata;
  subscriptionData: { trialPeriodDays: number | null; metadata: Metadata; description: string | null };
  paymentIntentData: { metadata: Metadata; description: string | null };
  /** Payment mode's `invoice_creation`: a paid invoice made after the payment (absent: disabled). */
  invoiceCreation?: { enabled: boolean; description: string | null; metadata: Metadata } | null;
  setupIntentData: { metadata: Metadata };
  subscription: string | null;
  paymentIntent: string | null;
  setupIntent: string | null;
  invoice: string | null;
  paymentMethodTypes: string[];
  /** A payment that waits for 3-D Secure on the hosted page. */
  pendingIntent: string | null;
  lastError: string | null;
  url: string;
}

export interface PortalSessionRecord {
  id: string;
  created: number;
  customer: string;
  returnUrl: string | null;
  flow: {
    type:
      'payment_method_update' | 'subscription_cancel' | 'subscription_update' | 'subscription_update_confirm';
    subscription: string | null;
    items: { id: string; price: string | null; quantity: number | null }[];
    afterCompletion: {
      type: 'redirect' | 'hosted_confirmation' | 'portal_homepage';
      returnUrl: string | null;
    };
  } | null;
  url: string;
  /** A payment on the hosted page that waits for 3-D Secure. */
  notice: string | null;
}

export interface TestClockRecord {
  id: string;
  created: number;
  frozenTime: number;
  name: string | null;
  status: 'ready' | 'advancing' | 'internal_failure';
  /** While advancing: the time it moves to. */
  targetTime: number | null;
  deletesAfter: number;
  deleted: boolean;
}

export interface WebhookEndpointRecord {
  id: string;
  created: number;
  url: string;
  secret: string;
  enabledEvents: string[];
  description: string | null;
  metadata: Metadata;
  status: 'enabled' | 'disabled';
  apiVersion: string | null;
  /** Registered from the start options: made again at each start, so not kept on disk. */
  fromStart?: boolean;
}

export interface EventRecord {
  id: string;
  created: number;
  type: string;
  object: Record<string, unknown>;
  previousAttributes: Record<string, unknown> | null;
  requestId: string | null;
  idempotencyKey: string | null;
  pendingWebhooks: number;
}

/** A POST's stored answer for its Idempotency-Key; `id` is a hash of the API key and the key. */
export interface IdempotencyRecord {
  id: string;
  created: number;
  fingerprint: string;
  status: number;
  body: unknown;
}

export interface AutomaticPaymentMethods {
  enabled: boolean;
  allowRedirects: 'always' | 'never';
}
