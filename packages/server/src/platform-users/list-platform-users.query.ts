import type { PlatformUserView } from '@helix/shared/schemas/platform-user';
import type { Db, Prisma } from '../db.ts';
import { paymentPlanOf } from '../presenters/session-user.presenter.ts';
import type { SubscriptionRecord } from '../sessions/session-user.include.ts';
import type { Actor } from '../sessions/session.service.ts';
import { tenantScope } from '../tenants/tenant-scope.ts';
import { authorize } from './platform-user.policy.ts';
import { shownEmail } from '../invites/invite-elsewhere.ts';

export const platformUserInclude = {
  tenant: { include: { subscription: { include: { plan: { select: { name: true } } } } } },
  roles: { include: { role: { select: { id: true, name: true } } } },
} satisfies Prisma.UserInclude;

type Row = Prisma.UserGetPayload<{ include: typeof platformUserInclude }>;

export function presentPlatformUser(user: Row): PlatformUserView {
  return {
    id: user.id,
    name: user.name,
    email: shownEmail(user),
    userName: user.userName,
    isAdmin: user.isAdmin,
    isOwner: user.isOwner,
    // paymentPlanOf reads only the status and the plan's name.
    paymentPlan: paymentPlanOf(user.tenant.subscription as SubscriptionRecord | null),
    companyName: user.tenant.name,
    tenant: user.tenant.domainPrefix,
    roles: user.roles.map(({ role }) => role).sort((a, b) => a.id - b.id),
    rolesVersion: user.rolesVersion,
    createdAt: user.createdAt.toISOString(),
  };
}

/**
 * GET /user/all for a platform admin: every user of every tenant (deleted users excepted), newest
 * first. The table sorts and searches in the browser.
 */
export async function listPlatformUsers(db: Db, actor: Actor): Promise<PlatformUserView[]> {
  authorize(actor, 'list');
  const users = await db.user.findMany({
    // The policy admits platform admins only, so the scope is every tenant.
    where: { deletedAt: null, ...tenantScope(actor) },
    include: platformUserInclude,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
  });
  return users.map(presentPlatformUser);
}
