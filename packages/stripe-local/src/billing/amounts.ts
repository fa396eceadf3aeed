import type { CouponRecord, PriceRecord } from '../core/records.ts';

/** The amount of `quantity` units of a price, in the currency's smallest unit. */
export function priceAmount(price: PriceRecord, quantity: number): number {
  if (price.billingScheme === 'per_unit') return (price.unitAmount ?? 0) * quantity;
  const tiers = price.tiers ?? [];
  if (price.tiersMode === 'volume') {
    const tier = tiers.find((t) => t.upTo === null || quantity <= t.upTo) ?? tiers[tiers.length - 1];
    if (!tier) return 0;
    return (tier.flatAmount ?? 0) + (tier.unitAmount ?? 0) * quantity;
  }
  // Graduated: each tier prices the units that fall inside it; a tier's flat amount applies once reached.
  let total = 0;
  let previousUpTo = 0;
  for (const tier of tiers) {
    if (quantity <= previousUpTo) break;
    const upper = tier.upTo === null ? quantity : Math.min(quantity, tier.upTo);
    const units = upper - previousUpTo;
    total += (tier.flatAmount ?? 0) + (tier.unitAmount ?? 0) * units;
    if (tier.upTo === null) break;
    previousUpTo = tier.upTo;
  }
  return total;
}

/** The discount of a coupon on a subtotal (Stripe rounds a percentage to the nearest cent). */
export function couponDiscount(coupon: CouponRecord, subtotal: number): number {
  if (coupon.percentOff !== null) return Math.min(subtotal, Math.round((subtotal * coupon.percentOff) / 100));
  if (coupon.amountOff !== null) return Math.min(subtotal, coupon.amountOff);
  return 0;
}

/**
 * An invoice's figures from its lines and coupons (coupons discount the lines that are not prorations):
 * what real invoices and previews both use. A negative result is $0 now and `credit` (negative) for the
 * customer's next invoice, as Stripe's customer balance does.
 */
export function invoiceTotals(
  lines: { amount: number; proration: boolean }[],
  coupons: CouponRecord[],
): { subtotal: number; discountAmount: number; total: number; credit: number } {
  const subtotal = lines.reduce((sum, l) => sum + l.amount, 0);
  const discountable = lines.filter((l) => !l.proration).reduce((sum, l) => sum + l.amount, 0);
  let discountAmount = 0;
  for (const coupon of coupons) discountAmount += couponDiscount(coupon, discountable - discountAmount);
  const leftover = subtotal - discountAmount;
  return { subtotal, discountAmount, total: Math.max(0, leftover), credit: Math.min(0, leftover) };
}

export function formatMoney(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(
    amount / 100,
  );
}
