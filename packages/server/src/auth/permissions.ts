import { PERMISSIONS, isPermission, type Permission } from '@helix/shared';
import type { SessionUserRecord, SubscriptionRecord } from '../sessions/session-user.include.ts';
import { planInForce } from '../billing/subscription-state.ts';

/**
 * The permissions a plan's feature flags turn on (accounts 3). A plan may also list any of them in
 * its permission list.
 */
export const PLAN_FEATURE_PERMISSIONS = {
  screenRecord: 'Screen.record',
  modelEmbed: 'Model.embed',
  transparentBackgroundWebEmbeding: 'Background.transparent',
  unlimitedViews: 'Model.unlimited_views',
  fasttrackCustomerSupport: 'Customersupport',
  customBranding: 'Brand.update',
  liveLessons: 'Lesson.lead',
} as const satisfies Record<string, Permission>;

/**
 * Whether the tenant's plan is in force: the one subscription state (billing/subscription-state.ts)
 * decides (trial, subscribed, payment failed while Stripe retries, cancelled before its end date).
 */
export function planIsInForce(
  subscription: SubscriptionRecord | null | undefined,
  now = new Date(),
): boolean {
  return planInForce(subscription, now);
}

/**
 * What a non-admin keeps without a plan in force (not subscribed, deactivated, payment failed, a
 * cancelled plan past its end date): their own profile and the subscription page, so they can
 * subscribe again.
 */
export const BASE_PERMISSIONS: ReadonlySet<Permission> = new Set<Permission>([
  'Profile.view',
  'Profile.update',
  'Subscription.listing.view',
]);

/**
 * What the tenant's plan includes: its permission list, plus the permission each of its feature flags
 * turns on. Without a plan in force: only BASE_PERMISSIONS.
 */
export function planGrants(
  subscription: SubscriptionRecord | null | undefined,
  now = new Date(),
): Set<Permission> {
  if (!subscription?.plan || !planIsInForce(subscription, now)) return new Set(BASE_PERMISSIONS);
  const plan = subscription.plan;
  const granted = new Set<Permission>();
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
 * - anyone else keeps only those their tenant's plan in force includes (planGrants: the plan's
 *   permission list and its feature flags), or, without a plan in force, only BASE_PERMISSIONS.
 * The answer is in vocabulary order.
 */
export function effectivePermissions(user: SessionUserRecord, now = new Date()): Permission[] {
  const fromRoles = new Set<Permission>();
  for (const { role } of user.roles) {
    for (const { permission } of role.permissions) {
      if (isPermission(permission.name)) fromRoles.add(permission.name);
    }
  }
  const allowed = user.isAdmin ? fromRoles : planGrants(user.tenant.subscription, now);
  return PERMISSIONS.filter((p) => fromRoles.has(p) && allowed.has(p));
}
