import { DECLINE_MESSAGES } from '../cards.ts';
import type { Context } from '../core/context.ts';
import { invalidRequest, StripeError } from '../core/errors.ts';
import { emit } from '../core/events.ts';
import type { SetupIntentRecord } from '../core/records.ts';
import { renderSetupIntent } from '../core/render.ts';
import { attachPaymentMethod, resolvePaymentMethod } from './payment-methods.ts';

/**
 * Confirms a SetupIntent with a card. A card declined everywhere fails here (402 card_error); a 3-D
 * Secure card asks for the challenge (requires_action); others succeed, get attached to the intent's
 * customer and may then be charged off-session (9995 and 0341 set up fine and fail on charges).
 */
export function confirmSetupIntent(
  ctx: Context,
  si: SetupIntentRecord,
  paymentMethodId: string | undefined,
): void {
  if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(si.status))
    throw new StripeError(400, {
      type: 'invalid_request_error',
      code: 'setup_intent_unexpected_state',
      message: `You cannot confirm this SetupIntent because it has a status of ${si.status}.`,
      setup_intent: renderSetupIntent(ctx, si),
    });
  const pmId = paymentMethodId ?? si.paymentMethod;
  if (!pmId)
    throw invalidRequest(
      "You cannot confirm this SetupIntent because it's missing a payment method. Update the SetupIntent with a payment method and then confirm it again.",
      { code: 'setup_intent_unexpected_state', param: 'payment_method' },
    );
  const pm = resolvePaymentMethod(ctx, pmId);
  if (pm.customer && si.customer && pm.customer !== si.customer)
    throw invalidRequest('The provided PaymentMethod is attached to another customer.', {
      param: 'payment_method',
    });
  si.paymentMethod = pm.id;
  si.lastError = null;
  if (pm.card.behaviour === 'decline_always') {
    const code = pm.card.declineCode ?? 'generic_decline';
    const message = DECLINE_MESSAGES[code] ?? 'Your card was declined.';
    si.status = 'requires_payment_method';
    si.lastError = {
      type: 'card_error',
      code: 'card_declined',
      declineCode: code,
      message,
      paymentMethod: pm.id,
    };
    si.paymentMethod = null;
    emit(ctx, 'setup_intent.setup_failed', si.id);
    throw new StripeError(402, {
      type: 'card_error',
      code: 'card_declined',
      decline_code: code,
      message,
      doc_url: 'https://stripe.com/docs/error-codes/card-declined',
      setup_intent: renderSetupIntent(ctx, si),
    });
  }
  if (pm.card.behaviour === 'authenticate_unless_setup' || pm.card.behaviour === 'authenticate_always') {
    si.status = 'requires_action';
    si.nextAction = { url: ctx.url(`/3ds/${si.id}`) };
    emit(ctx, 'setup_intent.requires_action', si.id);
    return;
  }
  succeed(ctx, si);
}

function succeed(ctx: Context, si: SetupIntentRecord): void {
  const pm = ctx.store.paymentMethods.get(si.paymentMethod!);
  if (si.customer && pm.customer !== si.customer) attachPaymentMethod(ctx, pm, si.customer);
  pm.setUpForOffSession = true;
  si.status = 'succeeded';
  si.nextAction = null;
  si.lastError = null;
  emit(ctx, 'setup_intent.succeeded', si.id);
}

export function completeSetupAuthentication(ctx: Context, si: SetupIntentRecord, passed: boolean): void {
  if (si.status !== 'requires_action') return;
  if (passed) return succeed(ctx, si);
  si.status = 'requires_payment_method';
  si.nextAction = null;
  si.lastError = {
    type: 'invalid_request_error',
    code: 'setup_intent_authentication_failure',
    declineCode: null,
    message:
      'The latest attempt to set up the payment method has failed because authentication failed. Provide a new payment method to attempt to set up again.',
    paymentMethod: si.paymentMethod,
  };
  si.paymentMethod = null;
  emit(ctx, 'setup_intent.setup_failed', si.id);
}
