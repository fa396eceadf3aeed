import type { Stripe, StripeCardElement } from '@stripe/stripe-js';
import type {
  PaymentActionView,
  PlanChangeView,
  SubscriptionSummaryView,
} from '@helix/shared/schemas/billing';
import { MSG } from '@helix/shared';
import { changePlanInApp, changeSeats, subscriptionSummary, updatePaymentIntent } from '../api/billing.api';
import { refreshSessionUser } from '../session/session';
import { cardErrorText, PaymentError } from './card-error';

/** A plan change (to another plan, seats carried or chosen) or a seat change on the live subscription. */
export type ChangeRequest =
  { kind: 'plan'; planId: number; quantity?: number } | { kind: 'seats'; quantity: number };

/**
 * How a change ended for the page:
 * - applied: in force (the session user is refreshed, so permissions and the summary follow);
 * - pending: paid, but the webhook has not applied it yet within the wait (the page keeps polling);
 * - needs-card: declined, or the 3-D Secure challenge failed or was cancelled: `message` goes under
 *   the card field and the buyer may pay the same invoice with another card (`action`).
 */
export type ChangeOutcome =
  | { status: 'applied' }
  | { status: 'pending' }
  | { status: 'needs-card'; message: string; action: PaymentActionView };

/** How long the page waits for the paid change to show in the summary (the webhook applies it). */
const SETTLE_TIMEOUT_MS = 30_000;
const SETTLE_EVERY_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type PendingView = Pick<SubscriptionSummaryView, 'pendingChange' | 'planId' | 'seats'>;

/** The order the change makes (the preview's plan and seats): the summary shows it once applied. */
export interface ExpectedOrder {
  planId: number;
  seats: number;
}

/** Whether the summary shows the change done: nothing waits, and (when known) the new plan and seats. */
export const showsApplied = (summary: PendingView, expected?: ExpectedOrder): boolean =>
  summary.pendingChange === null &&
  (!expected || (summary.planId === expected.planId && summary.seats === expected.seats));

/**
 * Polls the summary until the change shows as applied; the settled summary, or null on time out.
 * `pendingChange` alone is not enough: it comes from Stripe, which drops it the moment the payment
 * succeeds, while the plan and seats come from Helix's own record, which the webhook updates a moment
 * later.
 */
export async function waitForChangeApplied(
  expected?: ExpectedOrder,
  timeoutMs = SETTLE_TIMEOUT_MS,
  read: () => Promise<PendingView> = () => subscriptionSummary({ toast: false }),
): Promise<PendingView | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const summary = await read().catch(() => null);
    if (summary && showsApplied(summary, expected)) return summary;
    if (Date.now() >= deadline) return null;
    await sleep(SETTLE_EVERY_MS);
  }
}

/**
 * The session user follows Stripe through the webhook a moment later: read it again until it names
 * the plan the summary shows, so menus and permissions change with the page.
 */
async function refreshUntilPlan(planId: number | null, timeoutMs = SETTLE_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const user = await refreshSessionUser().catch(() => null);
    if (planId === null || user?.subscription?.planId === planId || Date.now() >= deadline) return;
    await sleep(SETTLE_EVERY_MS);
  }
}

async function settled(expected?: ExpectedOrder): Promise<ChangeOutcome> {
  const summary = await waitForChangeApplied(expected);
  if (!summary) {
    await refreshSessionUser().catch(() => null);
    return { status: 'pending' };
  }
  await refreshUntilPlan(summary.planId);
  return { status: 'applied' };
}

/**
 * Confirms the change's invoice payment with Stripe.js: the 3-D Secure challenge shows at once. With
 * `card`, the buyer's new card is first attached to the payment (the contract's retry after a decline).
 */
export async function payChangeInvoice(
  stripe: Stripe,
  action: PaymentActionView,
  options: { card?: StripeCardElement; expected?: ExpectedOrder } = {},
): Promise<ChangeOutcome> {
  const { card, expected } = options;
  const intent = action.paymentIntent;
  if (!intent?.client_secret) throw new PaymentError(MSG.defaultError);
  if (card) {
    const created = await stripe.createPaymentMethod({ type: 'card', card });
    if (created.error) return { status: 'needs-card', message: cardErrorText(created.error), action };
    await updatePaymentIntent({ payment_intent: intent.id, payment_method_id: created.paymentMethod.id });
  }
  const result = await stripe.confirmCardPayment(intent.client_secret);
  if (result.error) return { status: 'needs-card', message: cardErrorText(result.error), action };
  if (result.paymentIntent.status !== 'succeeded' && result.paymentIntent.status !== 'processing') {
    return { status: 'needs-card', message: MSG.cardPaymentFailed, action };
  }
  return settled(expected);
}

/** What the server's answer to change-plan or seats means for the page, running 3-D Secure at once. */
async function settleChange(
  stripe: () => Promise<Stripe>,
  answer: PlanChangeView,
  expected?: ExpectedOrder,
): Promise<ChangeOutcome> {
  switch (answer.outcome) {
    case 'applied':
      await refreshSessionUser().catch(() => null);
      return { status: 'applied' };
    case 'requires_action':
      if (!answer.paymentAction) throw new PaymentError(MSG.defaultError);
      return payChangeInvoice(await stripe(), answer.paymentAction, { expected });
    case 'requires_payment_method':
      if (!answer.paymentAction) throw new PaymentError(answer.message ?? MSG.cardDeclined);
      return {
        status: 'needs-card',
        // The server's message is the card's own (a decline); never empty.
        message: answer.message || MSG.cardDeclined,
        action: answer.paymentAction,
      };
  }
}

/** Makes the change on the server and settles it; `expected` is the preview's plan and seats. */
export async function runChange(
  stripe: () => Promise<Stripe>,
  request: ChangeRequest,
  expected?: ExpectedOrder,
): Promise<ChangeOutcome> {
  const answer =
    request.kind === 'plan'
      ? await changePlanInApp({ planId: request.planId, quantity: request.quantity })
      : await changeSeats({ quantity: request.quantity });
  return settleChange(stripe, answer, expected);
}
