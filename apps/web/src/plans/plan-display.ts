/** A plan of the catalogue (accounts 3), as loosely as the API may send it (Decimal prices as strings). */
export interface Plan {
  id: number;
  name: string;
  description?: string | null;
  price: number | string;
  firstTierPrice?: number | string | null;
  userLimit?: number | null;
  dynamicQuantity?: boolean | string | null;
  planType?: string | null;
  displayPlantype?: string | null;
  billedAnnually?: boolean | null;
  isSubscribed?: number | boolean | null;
  sortOrder?: number | null;
}

export type Period = 'MONTHLY' | 'YEARLY';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

const isPlan = (v: unknown): v is Plan =>
  isObject(v) && typeof v.id === 'number' && typeof v.name === 'string' && v.price !== undefined;

/** The list answer, whether it is a bare array or wrapped ({ plans } / { data }). */
export function toPlanList(answer: unknown): Plan[] {
  const list = Array.isArray(answer)
    ? answer
    : isObject(answer) && Array.isArray(answer.plans)
      ? answer.plans
      : isObject(answer) && Array.isArray(answer.data)
        ? answer.data
        : [];
  return list.filter(isPlan);
}

export const planPeriod = (plan: Plan): Period =>
  (plan.displayPlantype ?? plan.planType ?? '').toUpperCase() === 'YEARLY' ? 'YEARLY' : 'MONTHLY';

export const toAmount = (value: number | string | null | undefined): number => {
  const n = typeof value === 'number' ? value : Number.parseFloat(value ?? '');
  return Number.isFinite(n) ? n : 0;
};

/** What the plan costs for its included users: the first tier when it has one, else the price. */
export const basePrice = (plan: Plan): number => {
  const firstTier = toAmount(plan.firstTierPrice);
  return firstTier > 0 ? firstTier : toAmount(plan.price);
};

export const formatUsd = (amount: number): string => `$${amount.toFixed(2).replace(/\.00$/, '')}`;

export const isDynamicQuantity = (plan: Plan): boolean =>
  plan.dynamicQuantity === true || plan.dynamicQuantity === 'true';

/** The tooltip's first-tier cost per user, to 3 decimals (accounts 2). */
export function perUserCost(plan: Plan): string | null {
  const users = plan.userLimit ?? 0;
  if (users <= 0) return null;
  return (basePrice(plan) / users).toFixed(3);
}

export const plansFor = (plans: Plan[], period: Period): Plan[] =>
  plans
    .filter((plan) => planPeriod(plan) === period)
    .sort((a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0) || basePrice(a) - basePrice(b));
