import {
  CardCheckoutView,
  ChangePreviewView,
  CheckoutUrl,
  InvoiceListView,
  PaymentIntentView,
  PlanChangeView,
  SetupIntentView,
  SubscriptionSummaryView,
  SubscriptionView,
  type BuyViews,
  type ChangePreview,
  type PaymentIntentUpdate,
  type PlanChange,
  type CheckoutCreate,
  type PaymentIntentCreate,
  type PortalRequest,
  type SeatsChange,
  type SetupIntentConfirm,
  type SetupIntentUpdate,
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

export const updatePaymentIntent = async (body: PaymentIntentUpdate) =>
  PaymentIntentView.parse(await tenantApi.post('/subscription/payment-intent/update', body, quiet));

// ---- money screens (issue 15; /work/billing-contract.md) --------------------------------------------

/** The plan page's facts: plan, seats, price per period, next charge, a change waiting for its payment. */
export const subscriptionSummary = async (options?: RequestOptions) =>
  SubscriptionSummaryView.parse(await tenantApi.get('/subscription/summary', options));

/** What a plan or seat change would charge now (shown before every change). */
export const previewChange = async (body: ChangePreview) =>
  ChangePreviewView.parse(await tenantApi.post('/subscription/preview', body, quiet));

/** A live subscription to another plan (and seats), in the app: applied, 3-D Secure, or declined. */
export const changePlanInApp = async (body: PlanChange) =>
  PlanChangeView.parse(await tenantApi.post('/subscription/change-plan', body, quiet));

/** The live subscription's seats. */
export const changeSeats = async (body: SeatsChange) =>
  PlanChangeView.parse(await tenantApi.post('/subscription/seats', body, quiet));

/** The billing history, newest first; `startingAfter` is the last invoice id of the page before. */
export async function listInvoices(query: { limit?: number; startingAfter?: string }, signal?: AbortSignal) {
  const params = new URLSearchParams();
  if (query.limit) params.set('limit', String(query.limit));
  if (query.startingAfter) params.set('startingAfter', query.startingAfter);
  const search = params.size ? `?${params.toString()}` : '';
  return InvoiceListView.parse(await tenantApi.get(`/subscription/invoices${search}`, { signal }));
}
