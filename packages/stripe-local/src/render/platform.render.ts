import { API_VERSION, type Context } from '../core/context.ts';
import type { EventRecord, TestClockRecord, WebhookEndpointRecord } from '../core/records.ts';
import type { Json } from './json.ts';

export function renderTestClock(_ctx: Context, c: TestClockRecord): Json {
  if (c.deleted) return { id: c.id, object: 'test_helpers.test_clock', deleted: true };
  return {
    id: c.id,
    object: 'test_helpers.test_clock',
    created: c.created,
    deletes_after: c.deletesAfter,
    frozen_time: c.frozenTime,
    livemode: false,
    name: c.name,
    status: c.status,
    status_details:
      c.status === 'advancing' ? { advancing: { target_frozen_time: c.targetTime ?? c.frozenTime } } : {},
  };
}

export function renderWebhookEndpoint(_ctx: Context, w: WebhookEndpointRecord): Json {
  return {
    id: w.id,
    object: 'webhook_endpoint',
    api_version: w.apiVersion,
    application: null,
    created: w.created,
    description: w.description,
    enabled_events: w.enabledEvents,
    livemode: false,
    metadata: w.metadata,
    status: w.status,
    url: w.url,
  };
}

export function renderEvent(_ctx: Context, e: EventRecord): Json {
  return {
    id: e.id,
    object: 'event',
    api_version: API_VERSION,
    context: null,
    created: e.created,
    data: {
      object: e.object,
      ...(e.previousAttributes ? { previous_attributes: e.previousAttributes } : {}),
    },
    livemode: false,
    pending_webhooks: e.pendingWebhooks,
    request: { id: e.requestId, idempotency_key: e.idempotencyKey },
    type: e.type,
  };
}
