import express, { type ErrorRequestHandler, type Router } from 'express';
import { z } from 'zod';
import {
  BillingConfigView,
  BuyViews,
  CancelSubscription,
  CancelSubscriptionView,
  CardCheckoutView,
  ChangePreview,
  ChangePreviewView,
  CheckoutCreate,
  CheckoutUrl,
  InvoiceListQuery,
  InvoiceListView,
  LatestInvoicePayment,
  PaymentIntentCreate,
  PaymentIntentUpdate,
  PaymentIntentView,
  PlanChange,
  PlanChangeView,
  PortalRequest,
  SeatsChange,
  SetupIntentCancel,
  SetupIntentConfirm,
  SetupIntentCreate,
  SetupIntentUpdate,
  SetupIntentView,
  SubscriptionChange,
  SubscriptionSummaryView,
  SubscriptionView,
  TrialCreate,
  WebhookAnswer,
} from '@helix/shared/schemas/billing';
import { AppError } from '@helix/server';
import type { ServerDeps } from '@helix/server/deps';
import type { Actor } from '@helix/server/sessions/session.service';
import { applyStripeEvent, parseStripeEvent } from '@helix/server/billing/apply-stripe-event.command';
import { previewChange } from '@helix/server/billing/billing-preview.query';
import { changePlanInPlace, changeSeats } from '@helix/server/billing/change-subscription.command';
import { listInvoices, subscriptionSummary } from '@helix/server/billing/subscription-summary.query';
import { billingDetail, cancelPlan, changePlan } from '@helix/server/billing/billing-portal.command';
import { createCheckout, createViewsCheckout } from '@helix/server/billing/checkout-session.command';
import {
  cancelSubscriptionNow,
  createCardCheckout,
  createTrialOrSubscription,
  latestInvoicePayment,
  updatePaymentIntent,
} from '@helix/server/billing/create-subscription.command';
import {
  cancelSetupIntent,
  confirmSetupIntent,
  createSetupIntent,
  updateSetupIntent,
} from '@helix/server/billing/setup-intent.command';
import { stripeOf } from '@helix/server/billing/stripe-client';
import { audited } from '../http/audited.ts';
import { actorOf } from '../http/auth.ts';
import { inputOf, NoQuery } from '../http/validate.ts';
import { API, defineRoute, routerOf, TENANT, type RouteSpec } from './define-route.ts';
import { ERROR_CODES } from '@helix/shared/error-codes';
import type { AuditAction } from '@helix/shared/schemas/audit';
import { webhookLagSeconds, webhookOutcomes } from '@helix/server/metrics/metrics';

/** Webhook bodies are small; Stripe's largest events stay well under this. */
const WEBHOOK_BODY_LIMIT = '512kb';

/**
 * Stripe's errors as answers: a card error (declined, 3-D Secure failed) is a 402 with Stripe's own
 * message (the web shows it); a Stripe object that is not there is our 404; an idempotency clash a
 * 409; Stripe's rate limit a 429; anything else a logged 502 without internals.
 */
const stripeErrors: ErrorRequestHandler = (err, req, _res, next) => {
  const e = err as { type?: string; statusCode?: number; message?: string; code?: string };
  if (typeof e?.type !== 'string' || !e.type.startsWith('Stripe')) {
    next(err);
    return;
  }
  if (e.type === 'StripeCardError') {
    next(
      new AppError(ERROR_CODES.cardError, { status: 402, message: e.message ?? 'Your card was declined.' }),
    );
  } else if (e.statusCode === 404) {
    next(AppError.notFound());
  } else if (e.type === 'StripeIdempotencyError') {
    next(AppError.conflict('This request is already being processed.'));
  } else if (e.type === 'StripeRateLimitError') {
    next(AppError.tooManyRequests());
  } else {
    req.log?.error({ err }, 'stripe call failed');
    next(
      new AppError(ERROR_CODES.paymentProvider, {
        status: 502,
        message: 'Card payment is not available right now.',
      }),
    );
  }
};

const StripeEvent = z.looseObject({
  id: z.string(),
  type: z.string(),
  data: z.looseObject({ object: z.looseObject({}) }),
});

const STRIPE_ERRORS = [402, 404, 409, 422, 429, 502];

/**
 * Mounted before the JSON body parser. A missing or bad signature is a 400, and so is a signed body
 * that is not an event (`{}`, `null`, no `data`); a verified event answers 200 once applied or recorded
 * (unknown types, unknown customers and objects Stripe no longer has included).
 */
const webhook = defineRoute({
  method: 'post',
  path: '/api/stripe/webhook',
  tag: 'Billing',
  summary: "Stripe's webhook",
  description:
    'The signature covers the raw body (up to 512 kB). A failure while applying answers 5xx so Stripe retries.',
  auth: 'stripe',
  body: StripeEvent,
  bodyType: 'raw',
  // Read once the signature is checked (parseStripeEvent).
  describeOnly: ['body'],
  errors: [413, ...STRIPE_ERRORS],
  ok: WebhookAnswer,
  before: () => [express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT })],
  handler: (deps) => async (req, res) => {
    const secret = deps.config.STRIPE_WEBHOOK_SECRET;
    if (!secret)
      throw new AppError('BILLING_UNAVAILABLE', { status: 503, message: 'Webhooks are not configured.' });
    const signature = req.get('stripe-signature');
    if (!signature || !Buffer.isBuffer(req.body)) throw AppError.badRequest('Missing Stripe signature.');
    let verified: unknown;
    try {
      verified = stripeOf(deps).webhooks.constructEvent(req.body, signature, secret);
    } catch {
      webhookOutcomes.inc({ outcome: 'refused' });
      throw AppError.badRequest('Invalid Stripe signature.');
    }
    const event = parseStripeEvent(verified);
    // A malformed event may lack its creation time: no lag for it (a NaN would throw).
    if (Number.isFinite(event.created)) {
      webhookLagSeconds.observe(Math.max(0, Date.now() / 1000 - event.created));
    }
    const result = await applyStripeEvent(deps, event).catch((err: unknown) => {
      webhookOutcomes.inc({ outcome: 'failed' });
      throw err;
    });
    webhookOutcomes.inc({ outcome: result.outcome });
    res.json({ received: true, outcome: result.outcome });
  },
  onError: stripeErrors,
});

export const billingWebhookRoutes = (deps: ServerDeps): Router => routerOf(deps, API, [webhook]);

/**
 * A billing call: Subscription.listing.view, the body checked with its schema, then the command's
 * answer for the signed-in actor. A call that changes money or the subscription names its audit action
 * (docs/audit-log.md): recorded once Stripe accepted it, since Stripe's change cannot be part of our
 * transaction. Stripe's errors answer as stripeErrors says.
 */
function billingCall<S extends z.ZodType>(
  path: `/api${string}`,
  summary: string,
  body: S,
  ok: z.ZodType,
  command: (deps: ServerDeps, actor: Actor, input: z.output<S>) => Promise<unknown>,
  action?: AuditAction,
  extra: Partial<RouteSpec> = {},
) {
  return defineRoute({
    method: 'post',
    path,
    tag: 'Billing',
    summary,
    can: 'Subscription.listing.view',
    who: "the school's owner for money calls",
    body,
    errors: STRIPE_ERRORS,
    ok,
    ...(action ? { after: (deps: ServerDeps) => [audited(deps, action, action.split('.')[0]!)] } : {}),
    handler: (deps) => async (req, res) => {
      res.json(await command(deps, actorOf(req), inputOf(req, body)));
    },
    onError: stripeErrors,
    ...extra,
  });
}

/**
 * Base billing calls (/api): the Stripe.js configuration (no login), and the two calls a
 * just-registered visitor makes with the session sign-up answered (the tenant is the session's).
 */
const baseRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/billing/config',
    tag: 'Billing',
    summary: 'What the browser needs to load Stripe.js',
    query: NoQuery,
    ok: BillingConfigView,
    handler: (deps) => (_req, res) => {
      const answer: BillingConfigView = {
        publishableKey: deps.config.STRIPE_SECRET_KEY ? (deps.config.STRIPE_PUBLISHABLE_KEY ?? null) : null,
        stripeJsUrl: deps.config.STRIPE_JS_URL,
      };
      res.json(answer);
    },
  }),
  billingCall(
    '/api/subscription/setup_intents',
    'Start saving a card (base call, right after sign-up)',
    SetupIntentCreate,
    SetupIntentView,
    createSetupIntent,
    'payment-method.setup',
    { auth: 'session' },
  ),
  billingCall(
    '/api/subscription/createtrials/guest',
    'Start the trial or subscription (base call, right after sign-up)',
    TrialCreate,
    SubscriptionView,
    (deps, actor, input) => createTrialOrSubscription(deps, actor, input, { guest: true }),
    'subscription.create',
    { auth: 'session' },
  ),
];

export const billingBaseRoutes = (deps: ServerDeps): Router => routerOf(deps, API, baseRoutes);

/** Tenant billing calls (/api/t/:tenant, after auth and the tenant check): Subscription.listing.view. */
const tenantRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/subscription/summary',
    tag: 'Billing',
    summary: "The subscription page's summary",
    can: 'Subscription.listing.view',
    query: NoQuery,
    errors: [502],
    ok: SubscriptionSummaryView,
    handler: (deps) => async (req, res) => {
      res.json(await subscriptionSummary(deps, actorOf(req)));
    },
    onError: stripeErrors,
  }),
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/subscription/invoices',
    tag: 'Billing',
    summary: 'Invoices, newest first',
    can: 'Subscription.listing.view',
    query: InvoiceListQuery,
    errors: STRIPE_ERRORS,
    ok: InvoiceListView,
    handler: (deps) => async (req, res) => {
      res.json(await listInvoices(deps, actorOf(req), inputOf(req, InvoiceListQuery)));
    },
    onError: stripeErrors,
  }),
  billingCall(
    '/api/t/:tenant/subscription/preview',
    'What a plan or seats change would cost now',
    ChangePreview,
    ChangePreviewView,
    previewChange,
  ),
  billingCall(
    '/api/t/:tenant/subscription/change-plan',
    'Change plan in place (prorated)',
    PlanChange,
    PlanChangeView,
    changePlanInPlace,
    'subscription.change-plan',
  ),
  billingCall(
    '/api/t/:tenant/subscription/seats',
    'Change the number of seats',
    SeatsChange,
    PlanChangeView,
    changeSeats,
    'subscription.seats',
  ),
  billingCall(
    '/api/t/:tenant/checkout/create',
    'A Stripe Checkout page for a plan',
    CheckoutCreate,
    CheckoutUrl,
    createCheckout,
    'subscription.checkout',
  ),
  billingCall(
    '/api/t/:tenant/subscription/change',
    "Stripe's portal page to change plan",
    SubscriptionChange,
    CheckoutUrl,
    changePlan,
    'subscription.change',
  ),
  billingCall(
    '/api/t/:tenant/subscription/detail',
    "Stripe's billing portal",
    PortalRequest,
    CheckoutUrl,
    billingDetail,
  ),
  billingCall(
    '/api/t/:tenant/subscription/cancel_plan',
    "Stripe's portal page to cancel",
    PortalRequest,
    CheckoutUrl,
    cancelPlan,
    'subscription.cancel-plan',
  ),
  billingCall(
    '/api/t/:tenant/subscription/create_views',
    'Buy blocks of 1,000 views (Checkout)',
    BuyViews,
    CheckoutUrl,
    createViewsCheckout,
    'views.purchase',
  ),
  billingCall(
    '/api/t/:tenant/subscription/setup_intents',
    'Start saving a card',
    SetupIntentCreate,
    SetupIntentView,
    createSetupIntent,
    'payment-method.setup',
  ),
  billingCall(
    '/api/t/:tenant/subscription/setup_intents/cancel',
    'Cancel saving a card',
    SetupIntentCancel,
    SetupIntentView,
    cancelSetupIntent,
    'payment-method.cancel',
  ),
  billingCall(
    '/api/t/:tenant/subscription/setup_intents/update',
    'Change the card being saved',
    SetupIntentUpdate,
    SetupIntentView,
    updateSetupIntent,
    'payment-method.update',
  ),
  billingCall(
    '/api/t/:tenant/subscription/setup_intents/confirm',
    'Confirm saving a card',
    SetupIntentConfirm,
    SetupIntentView,
    confirmSetupIntent,
    'payment-method.confirm',
  ),
  billingCall(
    '/api/t/:tenant/subscription/createtrials',
    'Start the trial or subscription',
    TrialCreate,
    SubscriptionView,
    createTrialOrSubscription,
    'subscription.create',
  ),
  billingCall(
    '/api/t/:tenant/subscription/payment-intent',
    'Pay for a plan by card',
    PaymentIntentCreate,
    CardCheckoutView,
    createCardCheckout,
    'subscription.payment',
  ),
  billingCall(
    '/api/t/:tenant/subscription/payment-intent/update',
    'Change the card of a pending payment',
    PaymentIntentUpdate,
    PaymentIntentView,
    updatePaymentIntent,
    'subscription.payment-update',
  ),
  billingCall(
    '/api/t/:tenant/subscription/latest-invoice/payment-invoice',
    "The latest invoice's payment",
    LatestInvoicePayment,
    PaymentIntentView,
    latestInvoicePayment,
  ),
  billingCall(
    '/api/t/:tenant/subscription/cancel_subscription',
    'Cancel the subscription now',
    CancelSubscription,
    CancelSubscriptionView,
    cancelSubscriptionNow,
    'subscription.cancel',
  ),
];

export const billingTenantRoutes = (deps: ServerDeps): Router => routerOf(deps, TENANT, tenantRoutes);
