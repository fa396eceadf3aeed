import { createHmac } from 'node:crypto';
import type { Context } from './context.ts';
import { renderEvent } from './render.ts';
import { wants } from './events.ts';

/** Stripe's `Stripe-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.payload">`. */
export function signatureHeader(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)) {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

export interface DeliveryAttempt {
  eventId: string;
  endpoint: string;
  attempt: number;
  status: number | null;
  error: string | null;
  at: number;
}

/**
 * Delivers each event to every enabled endpoint: POST with the JSON body and a fresh signature per
 * attempt; a non-2xx answer, a refused connection or a timeout is retried after each of
 * `webhookRetryDelaysMs` (Stripe retries for days; locally the delays are short and bounded).
 * Deliveries to one endpoint go out in event order; retries do not hold up later events.
 */
export class WebhookDelivery {
  readonly log: DeliveryAttempt[] = [];
  private readonly queues = new Map<string, Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly ctx: Context) {}

  deliver(eventId: string): void {
    const event = this.ctx.store.events.find(eventId);
    if (!event || this.stopped) return;
    for (const endpoint of this.ctx.store.webhookEndpoints.values()) {
      if (endpoint.status !== 'enabled' || !wants(endpoint.enabledEvents, event.type)) continue;
      const previous = this.queues.get(endpoint.id) ?? Promise.resolve();
      const next = previous.then(() => this.attempt(eventId, endpoint.id, 1));
      this.queues.set(endpoint.id, next);
      this.track(next);
    }
  }

  private track(promise: Promise<void>): void {
    this.inFlight.add(promise);
    void promise.finally(() => this.inFlight.delete(promise));
  }

  private async attempt(eventId: string, endpointId: string, attempt: number): Promise<void> {
    const endpoint = this.ctx.store.webhookEndpoints.find(endpointId);
    const event = this.ctx.store.events.find(eventId);
    if (!endpoint || !event || this.stopped) return;
    const payload = JSON.stringify(renderEvent(this.ctx, event), null, 2);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'stripe-signature': signatureHeader(payload, endpoint.secret),
        },
        body: payload,
        signal: AbortSignal.timeout(this.ctx.options.webhookTimeoutMs),
      });
      status = response.status;
      await response.arrayBuffer().catch(() => undefined);
    } catch (e) {
      error = (e as Error).message;
    }
    this.log.push({ eventId, endpoint: endpoint.url, attempt, status, error, at: Date.now() });
    const ok = status !== null && status >= 200 && status < 300;
    // Looked up again after the await, so the journal sees the change (it watches what tables hand out).
    const settled = () => {
      const e = this.ctx.store.events.find(eventId);
      if (e) e.pendingWebhooks = Math.max(0, e.pendingWebhooks - 1);
    };
    if (ok) return settled();
    const delay = this.ctx.options.webhookRetryDelaysMs[attempt - 1];
    // Stopping is not giving up: an event still owed is sent again after the next start.
    if (this.stopped) return;
    if (delay === undefined) return settled();
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.track(this.attempt(eventId, endpointId, attempt + 1));
    }, delay);
    this.timers.add(timer);
  }

  /** Resolves when nothing is being delivered or waiting for a retry (tests). */
  async idle(): Promise<void> {
    while (this.inFlight.size || this.timers.size) {
      await Promise.allSettled([...this.inFlight]);
      if (this.timers.size) await new Promise((r) => setTimeout(r, 20));
    }
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
