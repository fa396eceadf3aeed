import type { TenantUserList } from '@helix/shared/schemas/tenant-user';
import type { Db } from '../db.ts';
import { readSeats } from '../invites/seats.ts';
import type { Actor } from '../sessions/session.service.ts';
import { ownTenant } from '../tenants/tenant-scope.ts';
import { authorizeUser } from './user.policy.ts';
import { lastLogins, presentTenantUser, tenantUserSelect } from './tenant-user.presenter.ts';

/**
 * GET /user/all (tenant owner): the tenant's live users by name with their status and latest login
 * (the users export), and its seat count.
 */
export async function listTenantUsers(db: Db, actor: Actor): Promise<TenantUserList> {
  authorizeUser(actor, 'list');
  const [users, seats] = await Promise.all([
    db.user.findMany({
      where: { ...ownTenant(actor), deletedAt: null },
      select: tenantUserSelect,
      orderBy: [{ name: 'asc' }, { id: 'asc' }],
    }),
    readSeats(db, actor.tenant.id),
  ]);
  // The ids come from the tenant-scoped query above: no other tenant's session is read.
  const logins = await lastLogins(
    db,
    users.map((u) => u.id),
  );
  return {
    users: users.map((u) => presentTenantUser(u, logins.get(u.id) ?? null)),
    totalUsers: seats.used,
    userLimit: seats.limit,
  };
}
