import { z } from 'zod';
import { SessionAbilities } from './abilities.ts';
import { AUTH_TYPES } from './account.ts';

/**
 * What the API answers about the signed-in user (apps/api/API.md, `SessionUser`). The web keeps it in
 * its session cookie and may check a stored copy with `SessionUser.safeParse` (a corrupt one logs out).
 */
export const SessionSubscription = z.object({
  status: z.enum(['none', 'trialing', 'active', 'canceled', 'deactivated', 'past_due', 'incomplete']),
  activePayment: z.boolean(),
  isTrialPassed: z.boolean(),
  /** Unix seconds. */
  trialEnd: z.number().int().nullable(),
  /** Unix seconds: a cancelled plan is valid until then. */
  cancelAt: z.number().int().nullable(),
  /** Unix seconds: when the cancellation was asked for (the cancelled banner's first date). */
  canceledAt: z.number().int().nullable().optional(),
  planId: z.number().int().nullable(),
  /** The plan's name; null when the tenant has no plan. */
  name: z.string().nullable(),
  /**
   * A payment waiting for the customer's confirmation (3-D Secure on a renewal or a change): Stripe's
   * page to complete it (the banner's link); absent or null when none.
   */
  paymentActionUrl: z.string().nullable().optional(),
});
export type SessionSubscription = z.infer<typeof SessionSubscription>;

export const SessionUser = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  userName: z.string(),
  isAdmin: z.boolean(),
  isOwner: z.boolean(),
  profilePicture: z.string().nullable(),
  parentId: z.number().int().nullable(),
  type: z.enum(['admin', 'owner', 'user']),
  roleId: z.number().int().nullable(),
  roles: z.array(z.object({ id: z.number().int(), name: z.string() })),
  permissions: z.array(z.string()),
  /** The tenant's domainPrefix: the `:tenant` of tenant calls. */
  tenant: z.string(),
  tenantId: z.number().int(),
  stripeId: z.string().nullable(),
  referenceId: z.string().nullable(),
  customBrandName: z.string().nullable(),
  paymentPlan: z.string().nullable(),
  subscription: SessionSubscription.nullable(),
  /** The profile's version (If-Match of POST /user/edit); absent in copies stored before it existed. */
  version: z.number().int().optional(),
  /**
   * The pages the user may open and the actions that belong to no item, decided by the server's
   * policies (schemas/abilities.ts). Absent in copies stored before it existed: the web then offers
   * nothing until /user/info answers.
   */
  abilities: SessionAbilities.optional(),
});
export type SessionUser = z.infer<typeof SessionUser>;

/** Login, register, join and Google validation answer this. */
export const AuthResponse = z.object({
  authType: z.enum(AUTH_TYPES),
  apiToken: z.string(),
  tenant: z.string(),
  user: SessionUser,
  rememberMe: z.boolean(),
  message: z.string().optional(),
});
export type AuthResponse = z.infer<typeof AuthResponse>;

/** GET /api/auth/providers: which sign-in providers this deployment has configured (no login). */
export const AuthProvidersView = z.object({ google: z.boolean() });
export type AuthProvidersView = z.infer<typeof AuthProvidersView>;
