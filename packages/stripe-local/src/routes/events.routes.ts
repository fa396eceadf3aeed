import type { Context } from '../core/context.ts';
import { endpoint } from '../core/http.ts';
import { newId, randomToken } from '../core/ids.ts';
import { createdFilter, listShape, matchesCreated, paginate } from '../core/list.ts';
import { arr, clearable, metadata, mergeMetadata, oneOf, req, str } from '../core/params.ts';
import { renderEvent, renderWebhookEndpoint } from '../core/render.ts';

export function addWebhookEndpoint(
  ctx: Context,
  url: string,
  secret?: string,
  enabledEvents: string[] = ['*'],
  fromStart = false,
) {
  return ctx.store.webhookEndpoints.add({
    ...(fromStart ? { fromStart } : {}),
    id: newId('we'),
    created: ctx.realNow(),
    url,
    secret: secret ?? `whsec_${randomToken(32)}`,
    enabledEvents,
    description: null,
    metadata: {},
    status: 'enabled',
    apiVersion: null,
  });
}

export const eventEndpoints = [
  endpoint('get', '/v1/events/:id', { shape: {} }, ({ ctx, path }) =>
    renderEvent(ctx, ctx.store.events.get(path.id!)),
  ),
  endpoint(
    'get',
    '/v1/events',
    {
      shape: {
        ...listShape,
        type: str(),
        types: arr(str(), 20),
        created: createdFilter,
        delivery_success: str(),
      },
    },
    ({ ctx, params }) => {
      const matchType = (type: string) => {
        if (params.types) return params.types.includes(type);
        if (!params.type) return true;
        if (params.type.endsWith('*')) return type.startsWith(params.type.slice(0, -1));
        return type === params.type;
      };
      return paginate(
        ctx,
        ctx.store.events.list().filter((e) => matchType(e.type) && matchesCreated(e.created, params.created)),
        params,
        '/v1/events',
        renderEvent,
      );
    },
  ),
  endpoint(
    'post',
    '/v1/webhook_endpoints',
    {
      shape: {
        url: req(str()),
        enabled_events: req(arr(str(), 500)),
        description: str(),
        metadata: metadata(),
        api_version: str(),
        connect: oneOf('false'),
      },
    },
    ({ ctx, params }) => {
      const endpoint = addWebhookEndpoint(ctx, params.url, undefined, params.enabled_events);
      endpoint.description = params.description ?? null;
      endpoint.metadata = params.metadata ?? {};
      endpoint.apiVersion = params.api_version ?? null;
      // Only creation answers the secret, as on Stripe.
      return { ...renderWebhookEndpoint(ctx, endpoint), secret: endpoint.secret };
    },
  ),
  endpoint('get', '/v1/webhook_endpoints/:id', { shape: {} }, ({ ctx, path }) =>
    renderWebhookEndpoint(ctx, ctx.store.webhookEndpoints.get(path.id!)),
  ),
  endpoint(
    'post',
    '/v1/webhook_endpoints/:id',
    {
      shape: {
        url: str(),
        enabled_events: arr(str(), 500),
        disabled: oneOf('true', 'false'),
        description: clearable(str()),
        metadata: metadata(),
      },
    },
    ({ ctx, params, path }) => {
      const w = ctx.store.webhookEndpoints.get(path.id!);
      if (params.url) w.url = params.url;
      if (params.enabled_events) w.enabledEvents = params.enabled_events;
      if (params.disabled) w.status = params.disabled === 'true' ? 'disabled' : 'enabled';
      if (params.description !== undefined) w.description = params.description;
      w.metadata = mergeMetadata(w.metadata, params.metadata);
      return renderWebhookEndpoint(ctx, w);
    },
  ),
  endpoint('delete', '/v1/webhook_endpoints/:id', { shape: {} }, ({ ctx, path }) => {
    const w = ctx.store.webhookEndpoints.get(path.id!);
    ctx.store.webhookEndpoints.delete(w.id);
    return { id: w.id, object: 'webhook_endpoint', deleted: true };
  }),
  endpoint('get', '/v1/webhook_endpoints', { shape: listShape }, ({ ctx, params }) =>
    paginate(ctx, ctx.store.webhookEndpoints.list(), params, '/v1/webhook_endpoints', renderWebhookEndpoint),
  ),
];
