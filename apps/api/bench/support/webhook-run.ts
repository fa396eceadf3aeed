import type Stripe from 'stripe';
import type { Db } from '@helix/server/db';
import { storedFromStripe } from '@helix/server/billing/subscription-state';
import { paymentFailedOf } from '@helix/server/billing/sync-subscription.command';
import { latestInvoiceOf, readBillingAccount } from '@helix/server/billing/billing-account.query';

/**
 * The Stripe webhook load, shared by apps/api/bench/webhooks.bench.ts (one API process) and
 * apps/api/bench/cluster.bench.ts (through nginx, two API processes): tenants in every state Stripe
 * can put them in, every event Stripe emitted for them delivered several times in a shuffled order,
 * posted signed at `concurrency` connections, then every tenant's stored subscription compared with
 * what Stripe holds.
 */

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** Tenants in every state Stripe can put them in: active, trialing, cancelling, cancelled, incomplete. */
export async function makeTenants(db: Db, stripe: Stripe, count: number): Promise<number[]> {
  const plans = await db.plan.findMany({ orderBy: { id: 'asc' } });
  const ids: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const plan = plans[i % plans.length]!;
    const tenant = await db.tenant.create({
      data: { domainPrefix: `bench${i}`, name: `Bench ${i}`, subscription: { create: {} } },
    });
    ids.push(tenant.id);
    const customer = await stripe.customers.create({
      name: tenant.name,
      metadata: { tenantId: String(tenant.id) },
    });
    await db.tenant.update({ where: { id: tenant.id }, data: { stripeCustomerId: customer.id } });
    const pm = await stripe.paymentMethods.attach((await stripe.paymentMethods.retrieve('pm_card_visa')).id, {
      customer: customer.id,
    });
    const kind = i % 5;
    const sub = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: plan.stripePriceId!, quantity: plan.userLimit + (i % 3) }],
      default_payment_method: pm.id,
      metadata: { tenantId: String(tenant.id), planId: String(plan.id) },
      ...(kind === 1 ? { trial_period_days: 30 } : {}),
      ...(kind === 4 ? { payment_behavior: 'default_incomplete' as const } : {}),
    });
    if (kind === 2) await stripe.subscriptions.update(sub.id, { cancel_at_period_end: true });
    if (kind === 3) await stripe.subscriptions.cancel(sub.id);
  }
  return ids;
}

/** Every event Stripe emitted for the tenants' customers, `deliveries` of them in a shuffled order. */
export async function webhookDeliveries(
  db: Db,
  stripe: Stripe,
  tenantIds: number[],
  deliveries: number,
): Promise<{ events: Stripe.Event[]; deliveries: Stripe.Event[] }> {
  const customers = new Set(
    (await db.tenant.findMany({ where: { id: { in: tenantIds } } })).map((t) => t.stripeCustomerId!),
  );
  const events: Stripe.Event[] = [];
  for await (const event of stripe.events.list({ limit: 100 })) {
    const object = event.data.object as { customer?: unknown; id?: string; object?: string };
    const customer = object.object === 'customer' ? object.id : object.customer;
    if (typeof customer === 'string' && customers.has(customer)) events.push(event);
  }
  return {
    events,
    deliveries: shuffle(Array.from({ length: deliveries }, (_, i) => events[i % events.length]!)),
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Posts the deliveries signed with `secret` at `concurrency` connections; answers rate and latency. */
export async function postWebhooks(options: {
  url: string;
  deliveries: Stripe.Event[];
  stripe: Stripe;
  secret: string;
  concurrency: number;
}) {
  const { deliveries, stripe } = options;
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < deliveries.length) {
        const event = deliveries[next++]!;
        const payload = JSON.stringify(event);
        const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: options.secret });
        const t = performance.now();
        const res = await fetch(options.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          body: payload,
        });
        const text = await res.text();
        latencies.push(performance.now() - t);
        if (!res.ok) {
          errors += 1;
          if (errors <= 3) console.log(`HTTP ${res.status}: ${text.slice(0, 200)}`);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  return {
    deliveries: latencies.length,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    errors,
  };
}

/** Tenants whose stored subscription differs from what Stripe holds (status, payment, ids, plan, seats, dates). */
export async function webhookMismatches(db: Db, stripe: Stripe, tenantIds: number[]): Promise<number> {
  let mismatches = 0;
  for (const tenantId of tenantIds) {
    const tenant = await db.tenant.findUniqueOrThrow({
      where: { id: tenantId },
      include: { subscription: true },
    });
    const { current } = await readBillingAccount(stripe, tenant.stripeCustomerId!);
    const stored = tenant.subscription!;
    const expected = current
      ? storedFromStripe(current, paymentFailedOf(latestInvoiceOf(current), null, null))
      : null;
    const same =
      expected &&
      stored.stripeSubscriptionId === current!.id &&
      stored.status === expected.status &&
      stored.activePayment === expected.activePayment &&
      stored.userLimit === expected.userLimit &&
      stored.cancelAt?.getTime() === expected.cancelAt?.getTime() &&
      stored.trialEnd?.getTime() === expected.trialEnd?.getTime() &&
      stored.currentPeriodEnd?.getTime() === expected.currentPeriodEnd?.getTime() &&
      String(stored.planId) === (current!.items.data[0]?.price.metadata?.planId ?? '');
    if (!same) {
      mismatches += 1;
      if (mismatches <= 5) console.log('mismatch', tenantId, { stored, expected, stripe: current?.status });
    }
  }
  return mismatches;
}
