import type { PlanView } from '@helix/shared/schemas/plan';
import type { Db } from '../db.ts';
import { planInclude, presentPlan } from '../presenters/plan.presenter.ts';
import type { Actor } from '../sessions/session.service.ts';

const ORDER = [{ sortOrder: 'asc' as const }, { id: 'asc' as const }];

/** The active catalogue, for guests. */
export async function listGuestPlans(db: Db): Promise<PlanView[]> {
  const plans = await db.plan.findMany({ where: { status: true }, include: planInclude, orderBy: ORDER });
  return plans.map((plan) => presentPlan(plan));
}

/** The active catalogue with isSubscribed = 1 on the caller's tenant's current plan. */
export async function listTenantPlans(db: Db, actor: Actor): Promise<PlanView[]> {
  const subscription = actor.tenant.subscription;
  const current =
    subscription && subscription.status !== 'none' && subscription.status !== 'deactivated'
      ? subscription.planId
      : null;
  const plans = await db.plan.findMany({ where: { status: true }, include: planInclude, orderBy: ORDER });
  return plans.map((plan) => presentPlan(plan, current));
}
