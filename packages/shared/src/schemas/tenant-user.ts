import { z } from 'zod';
import { TenantUserAbilities } from './abilities.ts';
import { EntityId } from './invite.ts';
import { listQuery, pageOf } from './list-query.ts';

/** Users of a tenant (/user/settings/users-list) and the user detail page (both detail routes). */

export const RoleRef = z.object({ id: z.number().int(), name: z.string() });

export const TenantUserView = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  userName: z.string(),
  /** false until an invited user has set a password: the row shows Resend Email. */
  isPassword: z.boolean(),
  isOwner: z.boolean(),
  roles: z.array(RoleRef),
  /** The role assignment's version (If-Match of POST /user/assignRoles). */
  rolesVersion: z.number().int(),
  createdAt: z.string(),
  /**
   * invited: has not joined yet (no password, no Google sign-in, never logged in); active: has.
   * The users export's Status column.
   */
  status: z.enum(['invited', 'active']),
  /** The user's latest login (the start of their latest session), null if they never logged in. */
  lastLoginAt: z.string().nullable(),
  /** What the caller may do with this user (view, resend the invitation, delete). */
  abilities: TenantUserAbilities,
});
export type TenantUserView = z.infer<typeof TenantUserView>;

/** GET /user/all for a tenant owner: the users, the count against the seat limit. */
export const TenantUserList = z.object({
  users: z.array(TenantUserView),
  /** Live users of the tenant, the owner included. */
  totalUsers: z.number().int(),
  /** Seats of the subscription (TenantSubscription.userLimit): invites stop at totalUsers = userLimit. */
  userLimit: z.number().int(),
});
export type TenantUserList = z.infer<typeof TenantUserList>;

/**
 * GET /user/all's query (docs/lists-at-scale.md): search (name or e-mail) and sort always apply;
 * with `page` or `pageSize` the answer is one page (TenantUserPage), without them every matching user
 * (TenantUserList: the export, the bulk invite's duplicate check).
 */
export const TENANT_USERS_SORTS = ['name', 'email', 'createdAt'] as const;
export const TenantUsersQuery = listQuery(TENANT_USERS_SORTS, { sort: 'name', order: 'asc' });
export type TenantUsersQuery = z.input<typeof TenantUsersQuery>;
export type TenantUsersQueryInput = z.output<typeof TenantUsersQuery>;

/**
 * The page the users list asks first (apps/web users-list.page.tsx), and so the one the API draws it
 * with (apps/web src/server-render/route-prefetch.ts): the app then starts with that answer instead of asking again.
 */
export const TENANT_USERS_FIRST_PAGE = {
  page: 1,
  pageSize: 20,
  sort: 'name',
  order: 'asc',
} as const satisfies TenantUsersQueryInput;

export const TenantUserPage = pageOf(TenantUserView).extend({
  totalUsers: z.number().int(),
  userLimit: z.number().int(),
});
export type TenantUserPage = z.infer<typeof TenantUserPage>;

/** POST /user/detail */
export const UserDetailRequest = z.strictObject({ id: EntityId });

/** POST /user/delete: the spec sends id and email; the email, when given, must be the user's. */
export const DeleteUserRequest = z.strictObject({
  id: EntityId,
  email: z.string().max(254).optional(),
});

export const UserDetailView = TenantUserView.extend({
  isAdmin: z.boolean(),
  tenant: z.object({ domainPrefix: z.string(), name: z.string() }),
  paymentPlan: z.string().nullable(),
  models: z.array(
    z.object({
      modelId: z.number().int(),
      name: z.string(),
      thumbnail: z.string().nullable(),
      viewCount: z.number().int(),
    }),
  ),
  totalModelViews: z.number().int(),
});
export type UserDetailView = z.infer<typeof UserDetailView>;
