import type { PlanView } from '@helix/shared/schemas/plan';
import type { Prisma } from '../db.ts';

export const planInclude = { permissions: { include: { permission: true } } } satisfies Prisma.PlanInclude;
export type PlanRecord = Prisma.PlanGetPayload<{ include: typeof planInclude }>;

/** A catalogue plan: prices as numbers (dollars), the spec's string dynamicQuantity and 0/1 isSubscribed. */
export function presentPlan(plan: PlanRecord, currentPlanId: number | null = null): PlanView {
  return {
    id: plan.id,
    name: plan.name,
    description: plan.description,
    family: plan.family,
    subscriptionLogo: plan.subscriptionLogo,
    price: plan.price.toNumber(),
    firstTierPrice: plan.firstTierPrice.toNumber(),
    userLimit: plan.userLimit,
    dynamicQuantity: plan.dynamicQuantity ? 'true' : 'false',
    planType: plan.planType,
    displayPlantype: plan.displayPlantype,
    billedAnnually: plan.billedAnnually,
    status: plan.status,
    hasAdmin: plan.hasAdmin,
    adminAccCount: plan.adminAccCount,
    viewLimit: plan.viewLimit,
    additionalViewsPrice: plan.additionalViewsPrice,
    trialDays: plan.trialDays,
    screenRecord: plan.screenRecord,
    modelEmbed: plan.modelEmbed,
    transparentBackgroundWebEmbeding: plan.transparentBackgroundWebEmbeding,
    unlimitedViews: plan.unlimitedViews,
    fasttrackCustomerSupport: plan.fasttrackCustomerSupport,
    customBranding: plan.customBranding,
    isSubscribed: currentPlanId !== null && plan.id === currentPlanId ? 1 : 0,
    permissions: plan.permissions.map((p) => p.permission.name).sort(),
  };
}
