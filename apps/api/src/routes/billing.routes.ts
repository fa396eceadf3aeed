import express, { Router, type ErrorRequestHandler } from 'express';
import {
  BuyViews,
  CancelSubscription,
  CheckoutCreate,
  LatestInvoicePayment,
  PaymentIntentCreate,
  PaymentIntentUpdate,
  PortalRequest,
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
import { applyStripeEvent } from '@helix/server/billing/apply-stripe-event.command';
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
import { actorOf, auth, can } from '../http/auth.ts';
import { inputOf, NoQuery, validate } from '../http/validate.ts';

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
    next(new AppError('CARD_ERROR', { status: 402, message: e.message ?? 'Your card was declined.' }));
  } else if (e.statusCode === 404) {
    next(AppError.notFound());
  } else if (e.type === 'StripeIdempotencyError') {
    next(AppError.conflict('This request is already being processed.'));
  } else if (e.type === 'StripeRateLimitError') {
    next(AppError.tooManyRequests());
  } else {
    req.log?.error({ err }, 'stripe call failed');
    next(
      new AppError('PAYMENT_PROVIDER', { status: 502, message: 'Card payment is not available right now.' }),
    );
  }
};

/**
 * POST /api/stripe/webhook: mounted before the JSON body parser (the signature covers the raw
 * body). A missing or bad signature is a 400; a verified event answers 200 once applied or recorded
 * (unknown types and duplicates included); a failure while applying answers 500 so Stripe retries.
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
      let event;
      try {
        event = stripeOf(deps).webhooks.constructEvent(req.body, signature, secret);
      } catch {
        throw AppError.badRequest('Invalid Stripe signature.');
      }
      const result = await applyStripeEvent(deps, event);
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
    async (req, res) => {
      res.json(await createSetupIntent(deps, actorOf(req)));
    },
  );
  router.post(
    '/subscription/createtrials/guest',
    auth(deps.db),
    can('Subscription.listing.view'),
    validate(TrialCreate),
    async (req, res) => {
      res.json(
        await createTrialOrSubscription(deps, actorOf(req), inputOf(req, TrialCreate), { guest: true }),
      );
    },
  );
  router.use(stripeErrors);
  return router;
}

/** Tenant billing calls (/api/t/:tenant, after auth and the tenant check): Subscription.listing.view. */
export function billingTenantRoutes(deps: ServerDeps): Router {
  const router = Router({ mergeParams: true });
  const gate = can('Subscription.listing.view');

  router.post('/checkout/create', gate, validate(CheckoutCreate), async (req, res) => {
    res.json(await createCheckout(deps, actorOf(req), inputOf(req, CheckoutCreate)));
  });
  router.post('/subscription/change', gate, validate(SubscriptionChange), async (req, res) => {
    res.json(await changePlan(deps, actorOf(req), inputOf(req, SubscriptionChange)));
  });
  router.post('/subscription/detail', gate, validate(PortalRequest), async (req, res) => {
    res.json(await billingDetail(deps, actorOf(req), inputOf(req, PortalRequest)));
  });
  router.post('/subscription/cancel_plan', gate, validate(PortalRequest), async (req, res) => {
    res.json(await cancelPlan(deps, actorOf(req), inputOf(req, PortalRequest)));
  });
  router.post('/subscription/create_views', gate, validate(BuyViews), async (req, res) => {
    res.json(await createViewsCheckout(deps, actorOf(req), inputOf(req, BuyViews)));
  });
  router.post('/subscription/setup_intents', gate, validate(SetupIntentCreate), async (req, res) => {
    res.json(await createSetupIntent(deps, actorOf(req)));
  });
  router.post('/subscription/setup_intents/cancel', gate, validate(SetupIntentCancel), async (req, res) => {
    res.json(await cancelSetupIntent(deps, actorOf(req), inputOf(req, SetupIntentCancel)));
  });
  router.post('/subscription/setup_intents/update', gate, validate(SetupIntentUpdate), async (req, res) => {
    res.json(await updateSetupIntent(deps, actorOf(req), inputOf(req, SetupIntentUpdate)));
  });
  router.post('/subscription/setup_intents/confirm', gate, validate(SetupIntentConfirm), async (req, res) => {
    res.json(await confirmSetupIntent(deps, actorOf(req), inputOf(req, SetupIntentConfirm)));
  });
  router.post('/subscription/createtrials', gate, validate(TrialCreate), async (req, res) => {
    res.json(await createTrialOrSubscription(deps, actorOf(req), inputOf(req, TrialCreate)));
  });
  router.post('/subscription/payment-intent', gate, validate(PaymentIntentCreate), async (req, res) => {
    res.json(await createCardCheckout(deps, actorOf(req), inputOf(req, PaymentIntentCreate)));
  });
  router.post(
    '/subscription/payment-intent/update',
    gate,
    validate(PaymentIntentUpdate),
    async (req, res) => {
      res.json(await updatePaymentIntent(deps, actorOf(req), inputOf(req, PaymentIntentUpdate)));
    },
  );
  router.post(
    '/subscription/latest-invoice/payment-invoice',
    gate,
    validate(LatestInvoicePayment),
    async (req, res) => {
      res.json(await latestInvoicePayment(deps, actorOf(req), inputOf(req, LatestInvoicePayment)));
    },
  );
  router.post('/subscription/cancel_subscription', gate, validate(CancelSubscription), async (req, res) => {
    res.json(await cancelSubscriptionNow(deps, actorOf(req), inputOf(req, CancelSubscription)));
  });
  router.use(stripeErrors);
  return router;
}
