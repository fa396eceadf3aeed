import { planTiers, toCents } from '@helix/shared/plan-price';
import type { Db, Plan } from '../db.ts';
import type { ServerDeps } from '../deps.ts';
import { stripeOf, type Stripe } from './stripe-client.ts';

/** The product one-off view packs are sold under (its price is computed per purchase from the plan). */
export const VIEWS_PRODUCT_ID = 'helix_additional_views';
/** The 100%-off coupon of platform grants (users added by a platform admin). */
export const GRANT_COUPON_ID = 'helix_platform_grant';

export const productIdOf = (plan: Pick<Plan, 'id'>) => `helix_plan_${plan.id}`;

/**
 * A plan's price lookup key names its amounts, so a price is never changed under a subscription: a
 * new amount in the plan table is a new price (a new lookup key), made once.
 */
export function priceLookupKey(
  plan: Pick<Plan, 'id' | 'firstTierPrice' | 'price' | 'userLimit' | 'planType'>,
) {
  const interval = plan.planType === 'YEARLY' ? 'year' : 'month';
  return `helix_plan_${plan.id}_${interval}_${plan.userLimit}x${toCents(plan.firstTierPrice)}+${toCents(plan.price)}`;
}

async function ensureProduct(stripe: Stripe, id: string, name: string, description?: string) {
  try {
    return await stripe.products.retrieve(id);
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode !== 404) throw error;
    return stripe.products.create(
      { id, name, ...(description ? { description } : {}), metadata: { helix: 'true' } },
      { idempotencyKey: `product-${id}` },
    );
  }
}

/**
 * The plan's recurring price, by lookup key: graduated tiers (firstTierPrice for the first userLimit
 * seats, the per-user price for each further seat), monthly or yearly, usd cents.
 */
export async function ensurePlanPrice(stripe: Stripe, plan: Plan): Promise<Stripe.Price> {
  const lookupKey = priceLookupKey(plan);
  const found = await stripe.prices.list({ lookup_keys: [lookupKey], limit: 1 });
  if (found.data[0]) return found.data[0];
  const product = await ensureProduct(stripe, productIdOf(plan), plan.name, plan.description);
  return stripe.prices.create(
    {
      product: product.id,
      currency: 'usd',
      lookup_key: lookupKey,
      nickname: plan.name,
      recurring: { interval: plan.planType === 'YEARLY' ? 'year' : 'month' },
      billing_scheme: 'tiered',
      tiers_mode: 'graduated',
      tiers: planTiers({ ...plan, dynamicQuantity: plan.dynamicQuantity }),
      metadata: { planId: String(plan.id) },
    },
    { idempotencyKey: `price-${lookupKey}` },
  );
}

export async function ensureGrantCoupon(stripe: Stripe): Promise<Stripe.Coupon> {
  try {
    return await stripe.coupons.retrieve(GRANT_COUPON_ID);
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode !== 404) throw error;
    return stripe.coupons.create(
      { id: GRANT_COUPON_ID, percent_off: 100, duration: 'forever', name: 'Helix platform grant' },
      { idempotencyKey: `coupon-${GRANT_COUPON_ID}` },
    );
  }
}

/** The plan's Stripe price id, made on first use when the start-up pass has not run. */
export async function planPriceId(deps: Pick<ServerDeps, 'config' | 'db'>, plan: Plan): Promise<string> {
  if (plan.stripePriceId) return plan.stripePriceId;
  const price = await ensurePlanPrice(stripeOf(deps), plan);
  await storePrice(deps.db, plan.id, price);
  return price.id;
}

const storePrice = (db: Db, planId: number, price: Stripe.Price) =>
  db.plan.update({
    where: { id: planId },
    data: {
      stripePriceId: price.id,
      stripeProductId: typeof price.product === 'string' ? price.product : price.product.id,
    },
  });

/**
 * Start-up (API): products and prices of every plan in the catalogue, the views product and the grant
 * coupon, each created once (found again by id or lookup key), and the price ids stored on the plans.
 * Safe to run from several processes at once (idempotency keys).
 */
export async function ensureStripeCatalog(
  deps: Pick<ServerDeps, 'config' | 'db'>,
): Promise<{ plans: number }> {
  const stripe = stripeOf(deps);
  const plans = await deps.db.plan.findMany({ orderBy: { id: 'asc' } });
  for (const plan of plans) {
    const price = await ensurePlanPrice(stripe, plan);
    if (plan.stripePriceId !== price.id) await storePrice(deps.db, plan.id, price);
  }
  await ensureProduct(stripe, VIEWS_PRODUCT_ID, 'Additional views', 'Blocks of 1,000 additional model views');
  await ensureGrantCoupon(stripe);
  return { plans: plans.length };
}
