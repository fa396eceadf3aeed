import { attemptPayment, newPaymentIntent, throwIfFailed } from '../billing/payment-intents.ts';
import { resolvePaymentMethod } from '../billing/payment-methods.ts';
import type { Context } from '../core/context.ts';
import { invalidRequest, StripeError } from '../core/errors.ts';
import { emit } from '../core/events.ts';
import { endpoint } from '../core/http.ts';
import { listShape, paginate } from '../core/list.ts';
import {
  arr,
  automaticPaymentMethods,
  bool,
  clearable,
  int,
  mergeMetadata,
  metadata,
  oneOf,
  req,
  resolveAutomaticPaymentMethods,
  str,
} from '../core/params.ts';
import type { PaymentIntentRecord } from '../core/records.ts';
import { renderPaymentIntent } from '../core/render.ts';
import { checkClientSecret } from './client-secret.ts';

const unexpectedState = (ctx: Context, pi: PaymentIntentRecord, action: string) =>
  new StripeError(400, {
    type: 'invalid_request_error',
    code: 'payment_intent_unexpected_state',
    message: `This PaymentIntent's ${action} could not be completed because it has a status of ${pi.status}.`,
    payment_intent: renderPaymentIntent(ctx, pi),
  });

/** Confirms with a card: succeeded, requires_action (3-D Secure), or a 402 card_error with the intent. */
function confirm(ctx: Context, pi: PaymentIntentRecord, pmId: string | undefined, offSession: boolean): void {
  if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(pi.status))
    throw unexpectedState(ctx, pi, 'confirm');
  const id = pmId ?? pi.paymentMethod;
  if (!id)
    throw invalidRequest(
      "You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent with cus_..., specify a payment method attached to this customer along with the customer ID.",
      { code: 'payment_intent_unexpected_state', param: 'payment_method' },
    );
  const pm = resolvePaymentMethod(ctx, id);
  if (pm.customer && pi.customer && pm.customer !== pi.customer)
    throw invalidRequest('The provided PaymentMethod belongs to a different Customer.', {
      param: 'payment_method',
    });
  pi.paymentMethod = pm.id;
  const invoice = pi.invoice ? ctx.store.invoices.find(pi.invoice) : undefined;
  if (invoice && invoice.status === 'open') {
    invoice.attemptCount += 1;
    invoice.attempted = true;
  }
  attemptPayment(ctx, pi, offSession);
  throwIfFailed(ctx, pi);
}

export const paymentIntentEndpoints = [
  endpoint(
    'post',
    '/v1/payment_intents',
    {
      shape: {
        amount: req(int(1, 99_999_999)),
        currency: req(str(3)),
        customer: str(),
        payment_method: str(),
        allowed_payment_method_types: arr(oneOf('card'), 10),
        automatic_payment_methods: automaticPaymentMethods(),
        description: str(),
        metadata: metadata(),
        receipt_email: str(),
        setup_future_usage: oneOf('off_session', 'on_session'),
        confirm: bool(),
        off_session: bool(),
        return_url: str(),
        statement_descriptor_suffix: str(22),
      },
    },
    ({ ctx, params }) => {
      if (params.customer) ctx.store.customers.get(params.customer, 'customer');
      if (params.amount < 50)
        throw invalidRequest('Amount must be at least $0.50 usd', {
          code: 'amount_too_small',
          param: 'amount',
        });
      const pm = params.payment_method ? resolvePaymentMethod(ctx, params.payment_method) : undefined;
      const pi = newPaymentIntent(ctx, {
        amount: params.amount,
        currency: params.currency.toLowerCase(),
        customer: params.customer ?? null,
        paymentMethod: pm?.id ?? null,
        paymentMethodTypes: params.allowed_payment_method_types ?? ['card'],
        automaticPaymentMethods: resolveAutomaticPaymentMethods(params),
        description: params.description ?? null,
        metadata: params.metadata ?? {},
        receiptEmail: params.receipt_email ?? null,
        setupFutureUsage: params.setup_future_usage ?? null,
      });
      emit(ctx, 'payment_intent.created', pi.id);
      if (params.confirm) confirm(ctx, pi, undefined, params.off_session ?? false);
      return renderPaymentIntent(ctx, pi);
    },
  ),
  endpoint(
    'get',
    '/v1/payment_intents/:id',
    { publishable: true, shape: { client_secret: str() } },
    ({ ctx, params, path, mode }) => {
      const pi = ctx.store.paymentIntents.get(path.id!, 'intent');
      checkClientSecret(mode, pi, params.client_secret, 'payment_intent');
      return renderPaymentIntent(ctx, pi);
    },
  ),
  endpoint(
    'post',
    '/v1/payment_intents/:id',
    {
      shape: {
        amount: int(1, 99_999_999),
        customer: str(),
        payment_method: str(),
        description: clearable(str()),
        metadata: metadata(),
        receipt_email: clearable(str()),
        setup_future_usage: clearable(oneOf('off_session', 'on_session')),
      },
    },
    ({ ctx, params, path }) => {
      const pi = ctx.store.paymentIntents.get(path.id!, 'intent');
      if (['succeeded', 'canceled', 'processing'].includes(pi.status))
        throw unexpectedState(ctx, pi, 'update');
      if (pi.invoice && params.amount !== undefined)
        throw invalidRequest('You cannot update the amount of a PaymentIntent created by an invoice.', {
          param: 'amount',
        });
      if (params.amount !== undefined) pi.amount = params.amount;
      if (params.customer) pi.customer = ctx.store.customers.get(params.customer, 'customer').id;
      if (params.payment_method) {
        pi.paymentMethod = resolvePaymentMethod(ctx, params.payment_method).id;
        pi.status = 'requires_confirmation';
      }
      if (params.description !== undefined) pi.description = params.description;
      if (params.receipt_email !== undefined) pi.receiptEmail = params.receipt_email;
      if (params.setup_future_usage !== undefined) pi.setupFutureUsage = params.setup_future_usage;
      pi.metadata = mergeMetadata(pi.metadata, params.metadata);
      return renderPaymentIntent(ctx, pi);
    },
  ),
  endpoint(
    'post',
    '/v1/payment_intents/:id/confirm',
    {
      publishable: true,
      shape: {
        payment_method: str(),
        client_secret: str(),
        return_url: str(),
        off_session: bool(),
        setup_future_usage: oneOf('off_session', 'on_session'),
        use_stripe_sdk: bool(),
      },
    },
    ({ ctx, params, path, mode }) => {
      const pi = ctx.store.paymentIntents.get(path.id!, 'intent');
      checkClientSecret(mode, pi, params.client_secret, 'payment_intent');
      if (params.setup_future_usage) pi.setupFutureUsage = params.setup_future_usage;
      confirm(ctx, pi, params.payment_method, params.off_session ?? false);
      return renderPaymentIntent(ctx, pi);
    },
  ),
  endpoint(
    'post',
    '/v1/payment_intents/:id/cancel',
    {
      shape: { cancellation_reason: oneOf('duplicate', 'fraudulent', 'requested_by_customer', 'abandoned') },
    },
    ({ ctx, params, path }) => {
      const pi = ctx.store.paymentIntents.get(path.id!, 'intent');
      if (['succeeded', 'canceled'].includes(pi.status)) throw unexpectedState(ctx, pi, 'cancel');
      if (pi.invoice)
        throw invalidRequest(
          'You cannot cancel this PaymentIntent because it was created by an invoice. Void the invoice instead.',
          {},
        );
      pi.status = 'canceled';
      pi.canceledAt = ctx.nowForCustomer(pi.customer);
      pi.cancellationReason = params.cancellation_reason ?? null;
      pi.nextAction = null;
      emit(ctx, 'payment_intent.canceled', pi.id);
      return renderPaymentIntent(ctx, pi);
    },
  ),
  endpoint('get', '/v1/payment_intents', { shape: { ...listShape, customer: str() } }, ({ ctx, params }) =>
    paginate(
      ctx,
      ctx.store.paymentIntents.list().filter((pi) => !params.customer || pi.customer === params.customer),
      params,
      '/v1/payment_intents',
      renderPaymentIntent,
    ),
  ),
];
