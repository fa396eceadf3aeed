import type { Db, Prisma } from '../db.ts';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { throughBillingGate } from './billing-gate.ts';
import { stripeOf, type Stripe } from './stripe-client.ts';
import { withTransaction } from '../db/transaction.ts';

export type Tx = Prisma.TransactionClient;
export type BillingDeps = Pick<ServerDeps, 'config' | 'db'> & {
  stripe?: Stripe;
  logger?: ServerDeps['logger'];
};

/** Namespace of the per-tenant advisory lock (pg_advisory_xact_lock(ns, tenantId)). */
const BILLING_LOCK_NAMESPACE = 0x48_42_4c; // 'HBL'

/**
 * Billing work of one tenant, one at a time in this process (a double click or two webhooks of one
 * tenant queue here). No transaction is open while it runs: Stripe is called first, then the database
 * is written in a short transaction (storeBilling). Across processes, Stripe's idempotency keys keep a
 * double create single, and stripeReadAt keeps an older read from overwriting a newer one.
 */
export function serialiseTenantBilling<T>(tenantId: number, fn: () => Promise<T>): Promise<T> {
  return throughBillingGate(tenantId, fn);
}

/**
 * A short transaction writing what was read from Stripe, under the tenant's advisory lock (so two
 * processes storing the same tenant's state do it one after the other). Never call Stripe inside.
 */
export function storeBilling<T>(db: Db, tenantId: number, fn: (tx: Tx) => Promise<T>): Promise<T> {
  // withTransaction retries a deadlock, a transaction that could not start and a lost connection.
  return withTransaction(db, async (tx) => {
    await tx.$queryRaw`SELECT pg_advisory_xact_lock(${BILLING_LOCK_NAMESPACE}::int, ${tenantId}::int)::text`;
    return fn(tx);
  });
}

const isMissing = (error: unknown) =>
  (error as { statusCode?: number; code?: string }).statusCode === 404 ||
  (error as { code?: string }).code === 'resource_missing';

/** Whether Stripe still holds the customer (a deleted customer reads back with `deleted: true`). */
async function customerExists(stripe: Stripe, customerId: string): Promise<boolean> {
  try {
    const customer = await stripe.customers.retrieve(customerId);
    return !('deleted' in customer && customer.deleted);
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/**
 * The tenant's Stripe customer, made once and stored. A stored id that Stripe no longer knows (the
 * customer was deleted in the dashboard, or a fresh stripe-local beside an old database) is replaced
 * by a new customer, so the tenant is never stranded on a 404.
 */
export async function ensureCustomer(deps: BillingDeps, tenantId: number): Promise<string> {
  const tenant = await deps.db.tenant.findUnique({
    where: { id: tenantId },
    include: { users: { where: { isOwner: true, deletedAt: null }, take: 1 } },
  });
  if (!tenant) throw AppError.notFound();
  if (tenant.isPlatform) throw AppError.forbidden();
  const stripe = stripeOf(deps);
  const stored = tenant.stripeCustomerId;
  if (stored && (await customerExists(stripe, stored))) return stored;
  if (stored)
    deps.logger?.warn({ tenantId, customer: stored }, 'stored Stripe customer is gone: making a new one');
  const owner = tenant.users[0];
  const key = `helix-customer-tenant-${tenant.id}${stored ? `-after-${stored}` : ''}`;
  // Development and tests: the customer on a clock of its own, so its periods can be run forward.
  const clock = deps.config.STRIPE_TEST_CLOCKS
    ? await stripe.testHelpers.testClocks.create(
        { frozen_time: Math.floor(Date.now() / 1000), name: `Helix tenant ${tenant.id}` },
        { idempotencyKey: `${key}-clock` },
      )
    : null;
  const customer = await stripe.customers.create(
    {
      name: tenant.name,
      ...(clock ? { test_clock: clock.id } : {}),
      ...(owner ? { email: owner.email } : {}),
      metadata: { tenantId: String(tenant.id), domainPrefix: tenant.domainPrefix },
    },
    { idempotencyKey: key },
  );
  await storeBilling(deps.db, tenantId, async (tx) => {
    await tx.tenant.update({ where: { id: tenant.id }, data: { stripeCustomerId: customer.id } });
    if (stored) {
      // Nothing of the old customer exists any more: the stored subscription pointed at it.
      await tx.tenantSubscription.updateMany({
        where: { tenantId },
        data: { stripeSubscriptionId: null, paymentActionInvoiceId: null, paymentActionUrl: null },
      });
    }
  });
  return customer.id;
}

/** The stored customer id, or null (for reads that must not create one). */
export async function storedCustomerId(db: Db, tenantId: number): Promise<string | null> {
  const tenant = await db.tenant.findUnique({ where: { id: tenantId }, select: { stripeCustomerId: true } });
  return tenant?.stripeCustomerId ?? null;
}

export { isMissing as stripeObjectMissing };
