import express, { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import type { z } from 'zod';
import {
  BuyViews,
  CancelSubscription,
  ChangePreview,
  CheckoutCreate,
  InvoiceListQuery,
  LatestInvoicePayment,
  PaymentIntentCreate,
  PaymentIntentUpdate,
  PlanChange,
  PortalRequest,
  SeatsChange,
  SetupIntentCancel,
  SetupIntentConfirm,
  SetupIntentCreate,
  SetupIntentUpdate,
  SubscriptionChange,
  TrialCreate,
  type BillingConfigView,
} from '@helix/shared/schemas/billing';
import { AppError } from '@helix/server';
import type { ServerDeps } from '@helix/server/deps';
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
import { actorOf, auth, can } from '../http/auth.ts';
import { inputOf, NoQuery, validate } from '../http/validate.ts';
import { ERROR_CODES } from '@helix/shared/schemas/outbox';
import type { AuditAction } from '@helix/shared/schemas/audit';
import { webhookLagSeconds, webhookOutcomes } from '@helix/server/metrics/metrics';

/** Webhook bodies are small; Stripe's largest events stay well under this. */
const WEBHOOK_BODY_LIMIT = '512kb';

/**
 * Stripe's errors as answers: a card error (declined, 3-D Secure failed) is a 402 with Stripe's own
 * message (the web shows it); a Stripe object that is not there is our 404; an idempotency clash a
 * 409; Stripe's rate limit a 429; anything else a logged 502 without internals.
 */
export const stripeErrors: ErrorRequestHandler = (err, req, _res, next) => {
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

/**
 * POST /api/stripe/webhook: mounted before the JSON body parser (the signature covers the raw
 * body). A missing or bad signature is a 400, and so is a signed body that is not an event (`{}`,
 * `null`, no `data`); a verified event answers 200 once applied or recorded (unknown types, unknown
 * customers and objects Stripe no longer has included); a failure while applying (Stripe or the
 * database unreachable) answers 5xx so Stripe retries.
 */
export function billingWebhookRoutes(deps: ServerDeps): Router {
  const router = Router();
  router.post(
    '/stripe/webhook',
    express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }),
    async (req, res) => {
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
  );
  router.use(stripeErrors);
  return router;
}

/**
 * Base billing calls (/api): the Stripe.js configuration (no login), and the two calls a
 * just-registered visitor makes with the session sign-up answered (the tenant is the session's).
 */
export function billingBaseRoutes(deps: ServerDeps): Router {
  const router = Router();
  router.get('/billing/config', validate(NoQuery, 'query'), (_req, res) => {
    const answer: BillingConfigView = {
      publishableKey: deps.config.STRIPE_SECRET_KEY ? (deps.config.STRIPE_PUBLISHABLE_KEY ?? null) : null,
      stripeJsUrl: deps.config.STRIPE_JS_URL,
    };
    res.json(answer);
  });
  router.post(
    '/subscription/setup_intents',
    auth(deps.db),
    can('Subscription.listing.view'),
    validate(SetupIntentCreate),
    audited(deps, 'payment-method.setup', 'payment-method'),
    async (req, res) => {
      res.json(await createSetupIntent(deps, actorOf(req)));
    },
  );
  router.post(
    '/subscription/createtrials/guest',
    auth(deps.db),
    can('Subscription.listing.view'),
    validate(TrialCreate),
    audited(deps, 'subscription.create', 'subscription'),
    async (req, res) => {
      res.json(
        await createTrialOrSubscription(deps, actorOf(req), inputOf(req, TrialCreate), { guest: true }),
      );
    },
  );
  router.use(stripeErrors);
  return router;
}

type BillingCommand<S extends z.ZodType> = (
  deps: ServerDeps,
  actor: ReturnType<typeof actorOf>,
  input: z.output<S>,
) => Promise<unknown>;

/**
 * A billing call: the body checked with its schema, then the command's answer for the signed-in actor.
 * A call that changes money or the subscription names its audit action (docs/audit-log.md): recorded
 * once Stripe accepted it, since Stripe's change cannot be part of our transaction.
 */
const commandCall =
  (deps: ServerDeps) =>
  <S extends z.ZodType>(schema: S, command: BillingCommand<S>, action?: AuditAction): RequestHandler[] => [
    validate(schema),
    ...(action ? [audited(deps, action, action.split('.')[0]!)] : []),
    async (req, res) => {
      res.json(await command(deps, actorOf(req), inputOf(req, schema)));
    },
  ];

/** Tenant billing calls (/api/t/:tenant, after auth and the tenant check): Subscription.listing.view. */
export function billingTenantRoutes(deps: ServerDeps): Router {
  const router = Router({ mergeParams: true });
  const gate = can('Subscription.listing.view');

  const call = commandCall(deps);
  router.get('/subscription/summary', gate, validate(NoQuery, 'query'), async (req, res) => {
    res.json(await subscriptionSummary(deps, actorOf(req)));
  });
  router.get('/subscription/invoices', gate, validate(InvoiceListQuery, 'query'), async (req, res) => {
    res.json(await listInvoices(deps, actorOf(req), inputOf(req, InvoiceListQuery)));
  });
  router.post('/subscription/preview', gate, ...call(ChangePreview, previewChange));
  router.post(
    '/subscription/change-plan',
    gate,
    ...call(PlanChange, changePlanInPlace, 'subscription.change-plan'),
  );
  router.post('/subscription/seats', gate, ...call(SeatsChange, changeSeats, 'subscription.seats'));
  router.post('/checkout/create', gate, ...call(CheckoutCreate, createCheckout, 'subscription.checkout'));
  router.post('/subscription/change', gate, ...call(SubscriptionChange, changePlan, 'subscription.change'));
  router.post('/subscription/detail', gate, ...call(PortalRequest, billingDetail));
  router.post(
    '/subscription/cancel_plan',
    gate,
    ...call(PortalRequest, cancelPlan, 'subscription.cancel-plan'),
  );
  router.post('/subscription/create_views', gate, ...call(BuyViews, createViewsCheckout, 'views.purchase'));
  router.post(
    '/subscription/setup_intents',
    gate,
    ...call(SetupIntentCreate, createSetupIntent, 'payment-method.setup'),
  );
  router.post(
    '/subscription/setup_intents/cancel',
    gate,
    ...call(SetupIntentCancel, cancelSetupIntent, 'payment-method.cancel'),
  );
  router.post(
    '/subscription/setup_intents/update',
    gate,
    ...call(SetupIntentUpdate, updateSetupIntent, 'payment-method.update'),
  );
  router.post(
    '/subscription/setup_intents/confirm',
    gate,
    ...call(SetupIntentConfirm, confirmSetupIntent, 'payment-method.confirm'),
  );
  router.post(
    '/subscription/createtrials',
    gate,
    ...call(TrialCreate, createTrialOrSubscription, 'subscription.create'),
  );
  router.post(
    '/subscription/payment-intent',
    gate,
    ...call(PaymentIntentCreate, createCardCheckout, 'subscription.payment'),
  );
  router.post(
    '/subscription/payment-intent/update',
    gate,
    ...call(PaymentIntentUpdate, updatePaymentIntent, 'subscription.payment-update'),
  );
  router.post(
    '/subscription/latest-invoice/payment-invoice',
    gate,
    ...call(LatestInvoicePayment, latestInvoicePayment),
  );
  router.post(
    '/subscription/cancel_subscription',
    gate,
    ...call(CancelSubscription, cancelSubscriptionNow, 'subscription.cancel'),
  );
  router.use(stripeErrors);
  return router;
}
