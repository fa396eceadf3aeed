import type { Stripe } from './stripe-client.ts';

/**
 * Stripe's subscription statuses, named by what each means to Helix: the one list every billing rule
 * reads (the account query, the stored state, the webhook's effects, ending replaced subscriptions).
 */
type Status = Stripe.Subscription.Status;

/** Paid for or trialing: the statuses a replacement must reach before it ends the plan it replaces. */
export const PAID_OR_TRIALING: ReadonlySet<Status> = new Set(['trialing', 'active']);

/** Billed for a plan in force or once in force: its renewal, trial conversion or seat change can fail. */
export const BILLED_STATUSES: ReadonlySet<Status> = new Set([...PAID_OR_TRIALING, 'past_due', 'unpaid']);

/**
 * Statuses in which a subscription holds the tenant's plan (in force or not). An `incomplete` one is
 * a purchase waiting for its first payment: it never holds a plan.
 */
export const HOLDING_STATUSES: ReadonlySet<Status> = new Set([...BILLED_STATUSES, 'paused']);

/** Holding a plan or may still come to (`incomplete`): a tenant never has two of them. */
export const LIVE_STRIPE_STATUSES: ReadonlySet<Status> = new Set([...HOLDING_STATUSES, 'incomplete']);

/** Statuses of a subscription that is over: its open invoices must never be collected. */
export const ENDED_STATUSES: ReadonlySet<Status> = new Set(['canceled', 'incomplete_expired']);
