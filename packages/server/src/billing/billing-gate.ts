/**
 * In-process admission for billing transactions, in front of the PostgreSQL advisory lock:
 * - one at a time per tenant: work for a busy tenant waits here, not inside an open transaction
 *   holding a pooled connection while it waits for the tenant's advisory lock;
 * - at most MAX_CONCURRENT billing transactions at once (they call Stripe while open), so a burst of
 *   webhooks never takes every connection of the pool from the rest of the API.
 * The advisory lock still serialises across processes. (A few lines of promise chaining; no library
 * for a keyed mutex is installed.)
 */
const MAX_CONCURRENT = 6;

const tails = new Map<number, Promise<void>>();
let running = 0;
const waiting: Array<() => void> = [];

async function acquireSlot(): Promise<void> {
  if (running < MAX_CONCURRENT) {
    running += 1;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function releaseSlot(): void {
  const next = waiting.shift();
  if (next) next();
  else running -= 1;
}

export async function throughBillingGate<T>(tenantId: number, fn: () => Promise<T>): Promise<T> {
  const previous = tails.get(tenantId) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  const tail = previous.then(() => mine);
  tails.set(tenantId, tail);
  await previous;
  await acquireSlot();
  try {
    return await fn();
  } finally {
    releaseSlot();
    done();
    if (tails.get(tenantId) === tail) tails.delete(tenantId);
  }
}
