import { Store } from './store.ts';

export const API_VERSION = '2026-10-28.endive';

export interface ContextOptions {
  /** Where browsers reach this server (hosted pages, Stripe.js, 3-D Secure). */
  publicUrl: string;
  secretKey: string;
  publishableKey: string;
  /** Delays before each webhook retry after a failed delivery (ms). */
  webhookRetryDelaysMs: number[];
  /** How long a webhook delivery may take before it counts as failed (ms). */
  webhookTimeoutMs: number;
  /**
   * Stripe's "Manage failed payments" settings: what a subscription and its invoice become when every
   * retry failed. Default: the subscription is canceled and the invoice marked uncollectible.
   */
  afterRetries?: AfterRetries;
}

export interface AfterRetries {
  subscription: 'cancel' | 'unpaid' | 'past_due';
  invoice: 'uncollectible' | 'past_due';
}

/** Hooks the server wires after construction (webhook delivery), to keep modules free of cycles. */
export interface Hooks {
  deliver(eventId: string): void;
}

/** The server's state and its clock: every module works on one of these. */
export class Context {
  readonly store = new Store();
  hooks: Hooks = { deliver: () => {} };
  /** Set while a request runs, so events record it (`request.id`, `request.idempotency_key`). */
  request: { id: string; idempotencyKey: string | null } | null = null;

  constructor(readonly options: ContextOptions) {}

  realNow(): number {
    return Math.floor(Date.now() / 1000);
  }

  /** The time of a test clock (frozen), or real time. */
  nowFor(testClock: string | null | undefined): number {
    if (!testClock) return this.realNow();
    const clock = this.store.testClocks.find(testClock);
    return clock ? clock.frozenTime : this.realNow();
  }

  /** The time as a customer sees it: its test clock's, else real time. */
  nowForCustomer(customerId: string | null | undefined): number {
    if (!customerId) return this.realNow();
    return this.nowFor(this.store.customers.find(customerId)?.testClock);
  }

  url(path: string): string {
    return `${this.options.publicUrl.replace(/\/$/, '')}${path}`;
  }
}
