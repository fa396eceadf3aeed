import { invalidRequest } from '../core/errors.ts';
import { endpoint } from '../core/http.ts';
import { newId } from '../core/ids.ts';
import { arr, int, obj, oneOf, req, str } from '../core/params.ts';
import type { PortalSessionRecord } from '../core/records.ts';
import { renderPortalSession } from '../core/render.ts';

const afterCompletion = obj({
  type: req(oneOf('redirect', 'hosted_confirmation', 'portal_homepage')),
  redirect: obj({ return_url: req(str(5000)) }),
  hosted_confirmation: obj({ custom_message: str(500) }),
});

export const portalEndpoints = [
  endpoint(
    'post',
    '/v1/billing_portal/sessions',
    {
      shape: {
        customer: req(str()),
        return_url: str(5000),
        configuration: str(),
        locale: str(),
        on_behalf_of: str(),
        flow_data: obj({
          type: req(
            oneOf(
              'payment_method_update',
              'subscription_cancel',
              'subscription_update',
              'subscription_update_confirm',
            ),
          ),
          after_completion: afterCompletion,
          subscription_cancel: obj({
            subscription: req(str()),
            retention: obj({ type: req(oneOf('coupon_offer')) }),
          }),
          subscription_update: obj({ subscription: req(str()) }),
          subscription_update_confirm: obj({
            subscription: req(str()),
            items: req(arr(obj({ id: req(str()), price: str(), quantity: int(0) }), 20)),
            discounts: arr(obj({ coupon: str(), promotion_code: str() }), 20),
          }),
        }),
      },
    },
    ({ ctx, params }) => {
      const customer = ctx.store.customers.get(params.customer, 'customer');
      let flow: PortalSessionRecord['flow'] = null;
      if (params.flow_data) {
        const f = params.flow_data;
        const detail = f.type === 'payment_method_update' ? undefined : f[f.type];
        if (f.type !== 'payment_method_update' && !detail)
          throw invalidRequest(`Missing required param: flow_data[${f.type}].`, {
            code: 'parameter_missing',
            param: `flow_data[${f.type}]`,
          });
        const subscriptionId = detail?.subscription ?? null;
        if (subscriptionId) {
          const sub = ctx.store.subscriptions.get(subscriptionId, `flow_data[${f.type}][subscription]`);
          if (sub.customer !== customer.id)
            throw invalidRequest('The subscription does not belong to this customer.', {
              param: `flow_data[${f.type}][subscription]`,
            });
          if (f.type === 'subscription_cancel' && (sub.cancelAtPeriodEnd || sub.status === 'canceled'))
            throw invalidRequest(
              'You can’t create a portal session to cancel a subscription that is already canceled or set to cancel.',
              { code: 'subscription_cancel_flow_invalid' },
            );
        }
        if (f.after_completion?.type === 'redirect' && !f.after_completion.redirect)
          throw invalidRequest('Missing required param: flow_data[after_completion][redirect].', {
            code: 'parameter_missing',
            param: 'flow_data[after_completion][redirect]',
          });
        flow = {
          type: f.type,
          subscription: subscriptionId,
          items:
            f.type === 'subscription_update_confirm'
              ? f.subscription_update_confirm!.items.map((i) => ({
                  id: i.id,
                  price: i.price ?? null,
                  quantity: i.quantity ?? null,
                }))
              : [],
          afterCompletion: {
            type: f.after_completion?.type ?? 'portal_homepage',
            returnUrl: f.after_completion?.redirect?.return_url ?? null,
          },
        };
      }
      const id = newId('bps');
      const session = ctx.store.portalSessions.add({
        id,
        created: ctx.nowFor(customer.testClock),
        customer: customer.id,
        returnUrl: params.return_url ?? null,
        flow,
        url: ctx.url(`/p/session/${id}`),
        notice: null,
      });
      return renderPortalSession(ctx, session);
    },
  ),
];
