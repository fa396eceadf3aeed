import {
  attachPaymentMethod,
  createCardPaymentMethod,
  detachPaymentMethod,
  resolvePaymentMethod,
} from '../billing/payment-methods.ts';
import { invalidRequest } from '../core/errors.ts';
import { emit } from '../core/events.ts';
import { endpoint } from '../core/http.ts';
import { listShape, paginate } from '../core/list.ts';
import { int, mergeMetadata, metadata, obj, oneOf, req, str } from '../core/params.ts';
import { renderPaymentMethod } from '../core/render.ts';

export const cardShape = obj({
  number: req(str(30)),
  exp_month: req(int()),
  exp_year: req(int()),
  cvc: str(4),
});
export const billingDetailsShape = obj({
  name: str(),
  email: str(),
  phone: str(),
  address: obj({ postal_code: str(), country: str(), line1: str(), line2: str(), city: str(), state: str() }),
});

export const paymentMethodEndpoints = [
  endpoint(
    'post',
    '/v1/payment_methods',
    {
      publishable: true,
      shape: {
        type: req(oneOf('card')),
        card: cardShape,
        billing_details: billingDetailsShape,
        metadata: metadata(),
        // Stripe.js stand-in: a wallet button makes a card PaymentMethod marked as Apple Pay / Google Pay.
        _wallet: oneOf('apple_pay', 'google_pay'),
      },
    },
    ({ ctx, params }) => {
      if (!params.card)
        throw invalidRequest('Missing required param: card.', { code: 'parameter_missing', param: 'card' });
      const pm = createCardPaymentMethod(
        ctx,
        {
          number: params.card.number,
          expMonth: params.card.exp_month,
          expYear: params.card.exp_year,
          cvc: params.card.cvc,
          name: params.billing_details?.name ?? null,
          email: params.billing_details?.email ?? null,
          postalCode: params.billing_details?.address?.postal_code ?? null,
          wallet: params._wallet ?? null,
        },
        params.metadata,
      );
      return renderPaymentMethod(ctx, pm);
    },
  ),
  endpoint('get', '/v1/payment_methods/:id', { shape: {} }, ({ ctx, path }) =>
    renderPaymentMethod(ctx, resolvePaymentMethod(ctx, path.id!, 'payment_method')),
  ),
  endpoint(
    'post',
    '/v1/payment_methods/:id',
    { shape: { metadata: metadata(), billing_details: billingDetailsShape } },
    ({ ctx, params, path }) => {
      const pm = ctx.store.paymentMethods.get(path.id!);
      pm.metadata = mergeMetadata(pm.metadata, params.metadata);
      if (params.billing_details?.name !== undefined) pm.billingDetails.name = params.billing_details.name;
      if (params.billing_details?.email !== undefined) pm.billingDetails.email = params.billing_details.email;
      emit(ctx, 'payment_method.updated', pm.id);
      return renderPaymentMethod(ctx, pm);
    },
  ),
  endpoint(
    'post',
    '/v1/payment_methods/:id/attach',
    { shape: { customer: req(str()) } },
    ({ ctx, params, path }) => {
      const pm = resolvePaymentMethod(ctx, path.id!, 'payment_method');
      attachPaymentMethod(ctx, pm, params.customer);
      return renderPaymentMethod(ctx, pm);
    },
  ),
  endpoint('post', '/v1/payment_methods/:id/detach', { shape: {} }, ({ ctx, path }) => {
    const pm = ctx.store.paymentMethods.get(path.id!);
    detachPaymentMethod(ctx, pm);
    return renderPaymentMethod(ctx, pm);
  }),
  endpoint(
    'get',
    '/v1/payment_methods',
    { shape: { ...listShape, customer: str(), type: oneOf('card') } },
    ({ ctx, params }) => {
      if (params.customer) ctx.store.customers.get(params.customer, 'customer');
      return paginate(
        ctx,
        ctx.store.paymentMethods
          .list()
          .filter((pm) => pm.customer !== null && (!params.customer || pm.customer === params.customer)),
        params,
        '/v1/payment_methods',
        renderPaymentMethod,
      );
    },
  ),
  endpoint(
    'get',
    '/v1/customers/:customer/payment_methods',
    { shape: { ...listShape, type: oneOf('card') } },
    ({ ctx, params, path }) => {
      const customer = ctx.store.customers.get(path.customer!, 'customer');
      return paginate(
        ctx,
        ctx.store.paymentMethods.list().filter((pm) => pm.customer === customer.id),
        params,
        `/v1/customers/${customer.id}/payment_methods`,
        renderPaymentMethod,
      );
    },
  ),
];
