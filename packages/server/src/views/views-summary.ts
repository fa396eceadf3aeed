import type { ViewsSummary } from '@helix/shared/schemas/model';
import type { ServerDeps } from '../deps.ts';
import type { Actor } from '../sessions/session.service.ts';
import { additionalViewsUsed, billingPeriod, viewAllowance } from './allowance.ts';
import { periodViewCount, type ViewDeps } from './record-view.ts';

/** What view counting needs from the process's dependencies. */
export const viewDepsOf = (deps: ServerDeps): ViewDeps => ({
  db: deps.db,
  redis: deps.redis,
  prefix: deps.config.REDIS_PREFIX,
  viewWindowSeconds: deps.config.VIEW_WINDOW_SECONDS,
  viewGracePercent: deps.config.VIEW_GRACE_PERCENT,
  jobs: deps.queue,
  logger: deps.logger,
});

/** The tenant's view allowance and use in the current billing period (non-admins). */
export async function viewsSummary(deps: ServerDeps, actor: Actor, now = new Date()): Promise<ViewsSummary> {
  const tenant = await deps.db.tenant.findUniqueOrThrow({
    where: { id: actor.tenant.id },
    include: { subscription: { include: { plan: true } }, branding: true },
  });
  const period = billingPeriod(tenant.subscription, now);
  const allowance = viewAllowance(tenant, deps.config.VIEW_GRACE_PERCENT);
  const viewCount = await periodViewCount(viewDepsOf(deps), tenant.id, period);
  return {
    viewCount,
    viewLimit: allowance.viewLimit,
    additionalViews: allowance.additionalViews,
    additionalViewsUsed: additionalViewsUsed(viewCount, allowance.viewLimit),
    additionalViewsPrice: allowance.additionalViewsPrice,
    additionalViewsValidation: Boolean(tenant.branding?.additionalViewsValidation),
    graceViews: allowance.grace,
    refuseAt: allowance.refuseOverLimit ? allowance.stopAt : null,
    periodStart: period.start.toISOString(),
    periodEnd: period.end.toISOString(),
  };
}
