import { z } from 'zod';
import { PlatformUserAbilities } from './abilities.ts';
import { MSG } from '../messages.ts';
import { email, LIMITS, newPassword, userName } from './account.ts';
import { requiredText } from './text.ts';
import { MAX_ID } from './ids.ts';
import { listQuery, pageOf } from './list-query.ts';

/** The platform admin's users table (/users) and the Assign Roles table (/permissions). */
export const PlatformUserView = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  userName: z.string(),
  isAdmin: z.boolean(),
  isOwner: z.boolean(),
  /** The tenant's plan name; null without a plan in force (as the session user's paymentPlan). */
  paymentPlan: z.string().nullable(),
  /** The tenant's name. */
  companyName: z.string(),
  tenant: z.string(),
  roles: z.array(z.object({ id: z.number().int(), name: z.string() })),
  /** The role assignment's version: an offline Assign Roles sends it back as If-Match. */
  rolesVersion: z.number().int(),
  createdAt: z.string(),
  /** What the caller may do with this user (view, delete, assign roles). */
  abilities: PlatformUserAbilities,
});
export type PlatformUserView = z.infer<typeof PlatformUserView>;
export const PlatformUserList = z.array(PlatformUserView);

/**
 * GET /user/all's query for a platform admin (/users, /permissions; docs/lists-at-scale.md): search
 * (name or e-mail) and sort always apply; with `page` or `pageSize` the answer is one page
 * (PlatformUserPage), without them every matching user (PlatformUserList).
 */
export const PLATFORM_USERS_SORTS = ['createdAt', 'name', 'email', 'companyName'] as const;
export const PlatformUsersQuery = listQuery(PLATFORM_USERS_SORTS, { sort: 'createdAt', order: 'desc' });
export type PlatformUsersQuery = z.input<typeof PlatformUsersQuery>;
export type PlatformUsersQueryInput = z.output<typeof PlatformUsersQuery>;
export const PlatformUserPage = pageOf(PlatformUserView);
export type PlatformUserPage = z.infer<typeof PlatformUserPage>;

export const PLAN_TYPES = ['MONTHLY', 'YEARLY'] as const;

/**
 * The add-user payload (administration-content 3): the spec's fields. coupon and trial_period_days are
 * fixed (the platform grants the plan: 100% coupon, no trial), so only those values are accepted.
 */
export const AddUserRequest = z.strictObject({
  name: requiredText(MSG.addUserName, LIMITS.name),
  /**
   * The school or organisation (the new tenant's name; invitations say "You are invited to <it>").
   * Not in the spec's payload: without it the tenant is named after its owner, as at sign-up.
   */
  tenantName: requiredText(MSG.addUserTenantName, LIMITS.name).optional(),
  user_name: userName,
  email: email(MSG.emailRequired),
  password: newPassword(MSG.passwordRequired),
  emailstatus: z.boolean().default(false),
  token: z.string().max(LIMITS.token).optional(),
  coupon: z.literal(true).default(true),
  /** Seats; at least the plan's userLimit (more only on a plan with dynamicQuantity). */
  quantity: z.number().int().min(1).max(10_000).optional(),
  trial_period_days: z.literal(0).default(0),
  planId: z
    .number({ error: MSG.choosePlan })
    .int({ error: MSG.choosePlan })
    .min(1, { error: MSG.choosePlan })
    .max(MAX_ID, { error: MSG.choosePlan }),
  subscription: z.enum(PLAN_TYPES, { error: MSG.chooseSubscription }),
});
export type AddUserRequest = z.input<typeof AddUserRequest>;

export const AddUserResponse = z.object({
  message: z.string(),
  user: z.object({ id: z.number().int(), email: z.string(), tenant: z.string() }),
});
export type AddUserResponse = z.infer<typeof AddUserResponse>;
