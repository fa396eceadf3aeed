import { confirmSetupIntent } from '../billing/setup-intents.ts';
import { resolvePaymentMethod } from '../billing/payment-methods.ts';
import { invalidRequest, StripeError } from '../core/errors.ts';
import { emit } from '../core/events.ts';
import { endpoint } from '../core/http.ts';
import { newId, randomToken } from '../core/ids.ts';
import { listShape, paginate } from '../core/list.ts';
import {
  arr,
  automaticPaymentMethods,
  bool,
  clearable,
  mergeMetadata,
  metadata,
  oneOf,
  resolveAutomaticPaymentMethods,
  str,
} from '../core/params.ts';
import { renderSetupIntent } from '../core/render.ts';
import { checkClientSecret } from './client-secret.ts';

const pmTypes = arr(oneOf('card'), 10);

export const setupIntentEndpoints = [
  endpoint(
    'post',
    '/v1/setup_intents',
    {
      shape: {
        customer: str(),
        payment_method: str(),
        allowed_payment_method_types: pmTypes,
        automatic_payment_methods: automaticPaymentMethods(),
        usage: oneOf('off_session', 'on_session'),
        metadata: metadata(),
        description: str(),
        confirm: bool(),
        return_url: str(),
      },
    },
    ({ ctx, params }) => {
      if (params.customer) ctx.store.customers.get(params.customer, 'customer');
      const pm = params.payment_method ? resolvePaymentMethod(ctx, params.payment_method) : undefined;
      const id = newId('seti');
      const si = ctx.store.setupIntents.add({
        id,
        created: ctx.nowForCustomer(params.customer),
        clientSecret: `${id}_secret_${randomToken(25)}`,
        customer: params.customer ?? null,
        paymentMethod: pm?.id ?? null,
        paymentMethodTypes: params.allowed_payment_method_types ?? ['card'],
        automaticPaymentMethods: resolveAutomaticPaymentMethods(params),
        usage: params.usage ?? 'off_session',
        metadata: params.metadata ?? {},
        description: params.description ?? null,
        status: pm ? 'requires_confirmation' : 'requires_payment_method',
        nextAction: null,
        lastError: null,
        cancellationReason: null,
      });
      emit(ctx, 'setup_intent.created', si.id);
      if (params.confirm) confirmSetupIntent(ctx, si, undefined);
      return renderSetupIntent(ctx, si);
    },
  ),
  endpoint(
    'get',
    '/v1/setup_intents/:id',
    { publishable: true, shape: { client_secret: str() } },
    ({ ctx, params, path, mode }) => {
      const si = ctx.store.setupIntents.get(path.id!, 'intent');
      checkClientSecret(mode, si, params.client_secret, 'setupintent');
      return renderSetupIntent(ctx, si);
    },
  ),
  endpoint(
    'post',
    '/v1/setup_intents/:id',
    {
      shape: {
        customer: str(),
        payment_method: str(),
        allowed_payment_method_types: pmTypes,
        metadata: metadata(),
        description: clearable(str()),
      },
    },
    ({ ctx, params, path }) => {
      const si = ctx.store.setupIntents.get(path.id!, 'intent');
      if (si.status === 'succeeded' || si.status === 'canceled')
        throw new StripeError(400, {
          type: 'invalid_request_error',
          code: 'setup_intent_unexpected_state',
          message: `You cannot update this SetupIntent because it has a status of ${si.status}.`,
        });
      if (params.customer) {
        ctx.store.customers.get(params.customer, 'customer');
        if (si.customer && si.customer !== params.customer)
          throw invalidRequest('You cannot change the customer of a SetupIntent.', { param: 'customer' });
        si.customer = params.customer;
      }
      if (params.payment_method) {
        si.paymentMethod = resolvePaymentMethod(ctx, params.payment_method).id;
        si.status = 'requires_confirmation';
      }
      if (params.allowed_payment_method_types) si.paymentMethodTypes = params.allowed_payment_method_types;
      if (params.description !== undefined) si.description = params.description;
      si.metadata = mergeMetadata(si.metadata, params.metadata);
      return renderSetupIntent(ctx, si);
    },
  ),
  endpoint(
    'post',
    '/v1/setup_intents/:id/confirm',
    {
      publishable: true,
      shape: {
        payment_method: str(),
        client_secret: str(),
        return_url: str(),
        use_stripe_sdk: bool(),
        allowed_payment_method_types: pmTypes,
      },
    },
    ({ ctx, params, path, mode }) => {
      const si = ctx.store.setupIntents.get(path.id!, 'intent');
      checkClientSecret(mode, si, params.client_secret, 'setupintent');
      confirmSetupIntent(ctx, si, params.payment_method);
      return renderSetupIntent(ctx, si);
    },
  ),
  endpoint(
    'post',
    '/v1/setup_intents/:id/cancel',
    { shape: { cancellation_reason: oneOf('abandoned', 'duplicate', 'requested_by_customer') } },
    ({ ctx, params, path }) => {
      const si = ctx.store.setupIntents.get(path.id!, 'intent');
      if (si.status === 'succeeded' || si.status === 'canceled')
        throw new StripeError(400, {
          type: 'invalid_request_error',
          code: 'setup_intent_unexpected_state',
          message: `You cannot cancel this SetupIntent because it has a status of ${si.status}.`,
        });
      si.status = 'canceled';
      si.nextAction = null;
      si.cancellationReason = params.cancellation_reason ?? null;
      emit(ctx, 'setup_intent.canceled', si.id);
      return renderSetupIntent(ctx, si);
    },
  ),
  endpoint(
    'get',
    '/v1/setup_intents',
    { shape: { ...listShape, customer: str(), payment_method: str() } },
    ({ ctx, params }) =>
      paginate(
        ctx,
        ctx.store.setupIntents
          .list()
          .filter(
            (si) =>
              (!params.customer || si.customer === params.customer) &&
              (!params.payment_method || si.paymentMethod === params.payment_method),
          ),
        params,
        '/v1/setup_intents',
        renderSetupIntent,
      ),
  ),
];
