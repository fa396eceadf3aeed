import { createHash } from 'node:crypto';

/**
 * A Stripe idempotency key derived from the tenant, the intent of the call and what it asks for, plus
 * a generation (how many of that thing the tenant already has in Stripe). A double click or a retry
 * of the same call gives the same key (Stripe answers the first result); a new, later intent (a new
 * plan, a purchase after the previous one) gives a new key.
 */
export function idempotencyKey(tenantId: number, intent: string, params: Record<string, unknown>): string {
  const digest = createHash('sha256').update(JSON.stringify(params)).digest('hex').slice(0, 40);
  return `helix-${intent}-t${tenantId}-${digest}`;
}
