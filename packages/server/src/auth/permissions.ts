import { PERMISSIONS, isPermission, type Permission } from '@helix/shared';
import type { SessionUserRecord, SubscriptionRecord } from '../accounts/session-user.include.ts';

/**
 * The permissions a plan decides: each follows one of the plan's feature flags (accounts 3). A plan
 * may also list any of them in its permission list.
 */
export const PLAN_FEATURE_PERMISSIONS = {
  screenRecord: 'Screen.record',
  modelEmbed: 'Model.embed',
  transparentBackgroundWebEmbeding: 'Background.transparent',
  unlimitedViews: 'Model.unlimited_views',
  fasttrackCustomerSupport: 'Customersupport',
  customBranding: 'Brand.update',
} as const satisfies Record<string, Permission>;

export const PLAN_GATED_PERMISSIONS: ReadonlySet<Permission> = new Set(
  Object.values(PLAN_FEATURE_PERMISSIONS),
);

/** A plan counts while it is on trial, paid, or cancelled but not yet at its end date. */
export function planIsInForce(
  subscription: SubscriptionRecord | null | undefined,
  now = new Date(),
): boolean {
  if (!subscription?.plan) return false;
  switch (subscription.status) {
    case 'trialing':
    case 'active':
      return true;
    case 'canceled':
      return subscription.cancelAt !== null && subscription.cancelAt > now;
    default:
      return false;
  }
}

/** The gated permissions the tenant's plan grants: its feature flags plus its permission list. */
export function planGrants(
  subscription: SubscriptionRecord | null | undefined,
  now = new Date(),
): Set<Permission> {
  const granted = new Set<Permission>();
  if (!subscription?.plan || !planIsInForce(subscription, now)) return granted;
  const plan = subscription.plan;
  for (const [flag, permission] of Object.entries(PLAN_FEATURE_PERMISSIONS)) {
    if (plan[flag as keyof typeof PLAN_FEATURE_PERMISSIONS]) granted.add(permission);
  }
  for (const { permission } of plan.permissions) {
    if (isPermission(permission.name)) granted.add(permission.name);
  }
  return granted;
}

/**
 * Effective permissions:
 * - everyone starts from the union of their roles' permissions (unknown names are dropped);
 * - a platform admin (isAdmin) keeps all of them;
 * - anyone else keeps the permissions no plan decides, and a plan-decided one (PLAN_GATED_PERMISSIONS)
 *   only when the tenant's plan in force grants it. Without a plan in force (not subscribed,
 *   deactivated, payment failed) the plan features are gone but the account still works.
 * The answer is in vocabulary order.
 */
export function effectivePermissions(user: SessionUserRecord, now = new Date()): Permission[] {
  const fromRoles = new Set<Permission>();
  for (const { role } of user.roles) {
    for (const { permission } of role.permissions) {
      if (isPermission(permission.name)) fromRoles.add(permission.name);
    }
  }
  if (!user.isAdmin) {
    const granted = planGrants(user.tenant.subscription, now);
    for (const permission of PLAN_GATED_PERMISSIONS) {
      if (!granted.has(permission)) fromRoles.delete(permission);
    }
  }
  return PERMISSIONS.filter((p) => fromRoles.has(p));
}
