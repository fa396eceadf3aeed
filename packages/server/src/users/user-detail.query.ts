import type { UserDetailView } from '@helix/shared/schemas/tenant-user';
import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';
import { imageUrl } from '../presenters/image-url.ts';
import { paymentPlanOf } from '../presenters/session-user.presenter.ts';
import type { Actor } from '../sessions/session.service.ts';
import type { SubscriptionRecord } from '../sessions/session-user.include.ts';
import { tenantScope } from '../tenants/tenant-scope.ts';
import { authorizeUser } from './user.policy.ts';
import { lastLogins, presentTenantUser, tenantUserSelect } from './tenant-user.presenter.ts';

/**
 * POST /user/detail: a user of the caller's tenant (a platform admin: any user), their roles, and the
 * models they opened with their view counts. Another tenant's user and a missing one are the same 404.
 */
export async function userDetail(db: Db, actor: Actor, id: number): Promise<UserDetailView> {
  authorizeUser(actor, 'view');
  const user = await db.user.findFirst({
    where: { id, deletedAt: null, ...tenantScope(actor) },
    select: {
      ...tenantUserSelect,
      tenant: {
        select: {
          domainPrefix: true,
          name: true,
          subscription: { select: { status: true, plan: { select: { name: true } } } },
        },
      },
    },
  });
  if (!user) throw AppError.notFound();
  authorizeUser(actor, 'view', user);

  const logins = await lastLogins(db, [user.id]);
  const views = await db.modelViewDaily.groupBy({
    by: ['modelId'],
    where: { userId: user.id },
    _sum: { count: true },
  });
  const models = await db.model.findMany({
    where: { id: { in: views.map((v) => v.modelId) } },
    select: { id: true, name: true, thumbnail: true },
  });
  const byId = new Map(models.map((m) => [m.id, m]));
  const rows = views
    .map((v) => {
      const model = byId.get(v.modelId);
      return {
        modelId: v.modelId,
        name: model?.name ?? '',
        thumbnail: imageUrl(model?.thumbnail),
        viewCount: v._sum.count ?? 0,
      };
    })
    .sort((a, b) => b.viewCount - a.viewCount || a.name.localeCompare(b.name));

  return {
    ...presentTenantUser(user, logins.get(user.id) ?? null, actor),
    isAdmin: user.isAdmin,
    tenant: { domainPrefix: user.tenant.domainPrefix, name: user.tenant.name },
    // paymentPlanOf reads only the status and the plan's name.
    paymentPlan: paymentPlanOf(user.tenant.subscription as SubscriptionRecord | null),
    models: rows,
    totalModelViews: rows.reduce((sum, r) => sum + r.viewCount, 0),
  };
}
