import {
  CancelSubscriptionView,
  CardCheckoutView,
  CheckoutUrl,
  SetupIntentView,
  SubscriptionView,
  type BuyViews,
  type CheckoutCreate,
  type PaymentIntentCreate,
  type PortalRequest,
  type SetupIntentConfirm,
  type SetupIntentUpdate,
  type SubscriptionChange,
  type TrialCreate,
} from '@helix/shared/schemas/billing';
import { baseSessionApi, tenantApi, type RequestOptions } from './client';

/**
 * One function per billing call (accounts 7; apps/api/BILLING-API.md). Every answer is parsed with the
 * shared schema the server presents with, so a surprise shape fails here and not deep in a flow.
 * Provider pages (Checkout, billing portal) come back as `{ url }` and the caller sends the browser there.
 */
const url = async (call: Promise<unknown>) => CheckoutUrl.parse(await call).url;

/** Hosted Checkout for an unsubscribed tenant. */
export const createCheckout = (body: CheckoutCreate) => url(tenantApi.post('/checkout/create', body));

/** A subscribed tenant changes plan on the provider's page (confirmed there). */
export const changePlan = (body: SubscriptionChange) => url(tenantApi.post('/subscription/change', body));

/** Billing details (the provider's billing portal). */
export const subscriptionDetail = (body: PortalRequest) => url(tenantApi.post('/subscription/detail', body));

/** Cancel Plan on the provider's page; it returns to /success/unsubscribe. */
export const cancelPlan = (body: PortalRequest) => url(tenantApi.post('/subscription/cancel_plan', body));

/** A one-off Checkout payment for blocks of 1,000 views. */
export const buyViews = (body: BuyViews) => url(tenantApi.post('/subscription/create_views', body));

// ---- trial flow (setup intent, then the trial subscription) ----------------------------------------

// The flows show the provider's or server's message themselves (5 s), so the client's toast is off.
const quiet: RequestOptions = { toast: false };

export const createSetupIntent = async () =>
  SetupIntentView.parse(await baseSessionApi.post('/subscription/setup_intents', {}, quiet));

export const updateSetupIntent = (body: SetupIntentUpdate) =>
  tenantApi.post<unknown>('/subscription/setup_intents/update', body, quiet);

export const confirmSetupIntent = async (body: SetupIntentConfirm) =>
  SetupIntentView.parse(await tenantApi.post('/subscription/setup_intents/confirm', body, quiet));

export const cancelSetupIntent = (intent: string) =>
  tenantApi.post<unknown>('/subscription/setup_intents/cancel', { intent }, quiet);

/** The trial subscription: a registering visitor's goes through the base guest call. */
export async function createTrial(body: TrialCreate, guest: boolean) {
  const answer = guest
    ? await baseSessionApi.post('/subscription/createtrials/guest', body, quiet)
    : await tenantApi.post('/subscription/createtrials', body, quiet);
  return SubscriptionView.parse(answer);
}

// ---- card checkout (trial passed) ------------------------------------------------------------------

/** Cancels any existing subscription, creates the incomplete one and answers its payment intent. */
export const startCardCheckout = async (body: PaymentIntentCreate) =>
  CardCheckoutView.parse(await tenantApi.post('/subscription/payment-intent', body, quiet));

export const cancelSubscription = async (subscriptionId: string) =>
  CancelSubscriptionView.parse(
    await tenantApi.post('/subscription/cancel_subscription', { subscriptionId }, quiet),
  );
