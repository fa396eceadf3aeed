/**
 * Plan prices (accounts 9): price = firstTierPrice for the first `userLimit` seats + the per-user
 * price for each extra seat. Amounts are computed in cents from the plan's dollar figures, so the web's
 * display and the server's Stripe prices agree to the cent. The server never takes an amount from the
 * browser.
 */
export interface PricedPlan {
  /** Dollars for the first `userLimit` seats. */
  firstTierPrice: number | string | { toString(): string };
  /** Dollars per extra seat. */
  price: number | string | { toString(): string };
  userLimit: number;
  /** Only dynamic-quantity plans sell extra seats. */
  dynamicQuantity: boolean | 'true' | 'false';
}

/** Dollars (a number, a decimal string or a Prisma Decimal) to whole cents. */
export function toCents(dollars: number | string | { toString(): string }): number {
  const text = typeof dollars === 'number' ? dollars.toFixed(2) : dollars.toString();
  const match = /^(\d+)(?:\.(\d{1,2})\d*)?$/.exec(text.trim());
  if (!match) throw new Error(`Not an amount in dollars: ${text}`);
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

const isDynamic = (plan: PricedPlan) => plan.dynamicQuantity === true || plan.dynamicQuantity === 'true';

/** Seats billed: a fixed plan always bills its userLimit; a dynamic one at least its userLimit. */
export function billedSeats(plan: PricedPlan, quantity?: number): number {
  if (!isDynamic(plan)) return plan.userLimit;
  return Math.max(plan.userLimit, quantity ?? plan.userLimit);
}

/** Whether `quantity` is a valid seat count for the plan (positive integer, at least userLimit). */
export const seatQuantityIsValid = (plan: PricedPlan, quantity: number): boolean =>
  Number.isInteger(quantity) && quantity >= 1 && (!isDynamic(plan) || quantity >= plan.userLimit);

/** Cents charged per period for `quantity` seats. */
export function planAmountCents(plan: PricedPlan, quantity?: number): number {
  const seats = billedSeats(plan, quantity);
  const extra = Math.max(0, seats - plan.userLimit);
  return toCents(plan.firstTierPrice) + extra * toCents(plan.price);
}

/** The first tier's cost per seat, to 3 decimals (the price tooltip). */
export const firstTierPerSeat = (plan: PricedPlan): string =>
  (toCents(plan.firstTierPrice) / 100 / Math.max(1, plan.userLimit)).toFixed(3);

/**
 * Stripe's graduated tiers for the plan: the first `userLimit` seats for a flat firstTierPrice, each
 * further seat at the per-user price. A fixed plan bills exactly userLimit seats (quantity = userLimit).
 */
export function planTiers(
  plan: PricedPlan,
): Array<{ up_to: number | 'inf'; flat_amount?: number; unit_amount?: number }> {
  return [
    { up_to: plan.userLimit, flat_amount: toCents(plan.firstTierPrice), unit_amount: 0 },
    { up_to: 'inf', unit_amount: toCents(plan.price) },
  ];
}
