import type { Context } from './context.ts';
import { newId } from './ids.ts';
import { renderById, type Json } from './render.ts';

/**
 * Records an event with a snapshot of the object as it is now and hands it to webhook delivery.
 * `created` is the object's clock time (a test clock's frozen time for its customers' objects).
 */
export function emit(
  ctx: Context,
  type: string,
  objectId: string,
  options: { previous?: Json; customer?: string | null } = {},
): void {
  const object = renderById(ctx, objectId);
  if (!object) return;
  const customer =
    options.customer !== undefined
      ? options.customer
      : typeof object.customer === 'string'
        ? object.customer
        : null;
  const endpoints = [...ctx.store.webhookEndpoints.values()].filter((w) => wants(w.enabledEvents, type));
  const event = ctx.store.events.add({
    id: newId('evt'),
    created: ctx.nowForCustomer(customer),
    type,
    object,
    previousAttributes: options.previous && Object.keys(options.previous).length ? options.previous : null,
    requestId: ctx.request?.id ?? null,
    idempotencyKey: ctx.request?.idempotencyKey ?? null,
    pendingWebhooks: endpoints.length,
  });
  ctx.hooks.deliver(event.id);
}

export const wants = (enabled: string[], type: string) => enabled.includes('*') || enabled.includes(type);

/**
 * The fields of `before` that differ in `after` (top level), with their old values: Stripe's
 * `previous_attributes` of an `*.updated` event.
 */
export function changedFields(before: Json, after: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(before)) {
    if (JSON.stringify(value) !== JSON.stringify(after[key])) out[key] = value;
  }
  return out;
}
