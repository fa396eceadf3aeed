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
 * Runs `fn` in a transaction holding the tenant's billing lock: every write of a tenant's billing
 * state (commands, webhooks, the reconcile job) is serialised per tenant, so a double click, a retry
 * or two events at once cannot make two subscriptions or let an older read overwrite a newer one.
 * Stripe calls happen inside (they are what the lock protects); the transaction allows for them.
 */
export function withTenantBillingLock<T>(db: Db, tenantId: number, fn: (tx: Tx) => Promise<T>): Promise<T> {
  // withTransaction retries a transaction that could not start, a deadlock and a lost connection.
  return throughBillingGate(tenantId, () =>
    withTransaction(
      db,
      async (tx) => {
        await tx.$queryRaw`SELECT pg_advisory_xact_lock(${BILLING_LOCK_NAMESPACE}::int, ${tenantId}::int)::text`;
        return fn(tx);
      },
      { maxWaitMs: 30_000, timeoutMs: 60_000 },
    ),
  );
}

/** The tenant's Stripe customer: made once (idempotency key per tenant) and stored. */
export async function ensureCustomer(deps: BillingDeps, tx: Tx, tenantId: number): Promise<string> {
  const tenant = await tx.tenant.findUnique({
    where: { id: tenantId },
    include: { users: { where: { isOwner: true, deletedAt: null }, take: 1 } },
  });
  if (!tenant) throw AppError.notFound();
  if (tenant.isPlatform) throw AppError.forbidden();
  if (tenant.stripeCustomerId) return tenant.stripeCustomerId;
  const owner = tenant.users[0];
  const customer = await stripeOf(deps).customers.create(
    {
      name: tenant.name,
      ...(owner ? { email: owner.email } : {}),
      metadata: { tenantId: String(tenant.id), domainPrefix: tenant.domainPrefix },
    },
    { idempotencyKey: `helix-customer-tenant-${tenant.id}` },
  );
  await tx.tenant.update({ where: { id: tenant.id }, data: { stripeCustomerId: customer.id } });
  return customer.id;
}

/** Every subscription of the customer, newest first (Stripe lists newest first). */
export async function customerSubscriptions(
  stripe: Stripe,
  customerId: string,
): Promise<Stripe.Subscription[]> {
  const subs: Stripe.Subscription[] = [];
  for await (const sub of stripe.subscriptions.list({
    customer: customerId,
    status: 'all',
    limit: 100,
    expand: ['data.latest_invoice'],
  })) {
    subs.push(sub);
  }
  return subs.sort((a, b) => b.created - a.created);
}
