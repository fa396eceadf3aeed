import type { Permission } from '@helix/shared';
import { planInForce, type StoredSubscriptionRow } from '../billing/subscription-state.ts';
import { effectivePermissions } from '../auth/permissions.ts';
import type { SessionUserRecord } from '../sessions/session-user.include.ts';

/**
 * The features a plan sells beyond its permission list (issue 10): screen recording and transparent
 * embeds. Each needs BOTH the permission among the user's effective permissions (roles limited to the
 * plan, auth/permissions.ts) AND the plan's own flag, with the plan in force (the one subscription
 * state). The platform tenant has no plan: its admins need only the permission. Every check reads the
 * rows of this request, so a plan downgrade removes a feature at the next request.
 */
export type PlanFeature = 'screenRecord' | 'transparentBackgroundWebEmbeding';

export const FEATURE_PERMISSION = {
  screenRecord: 'Screen.record',
  transparentBackgroundWebEmbeding: 'Background.transparent',
} as const satisfies Record<PlanFeature, Permission>;

/** What the rule reads of a tenant: whether it is the platform, and its subscription with the plan's flags. */
export interface FeatureTenant {
  isPlatform: boolean;
  subscription: (StoredSubscriptionRow & { plan: Partial<Record<PlanFeature, boolean>> | null }) | null;
}

/** Whether the tenant's plan includes the feature now (the platform tenant always does). */
export function tenantHasFeature(tenant: FeatureTenant, feature: PlanFeature, now = new Date()): boolean {
  if (tenant.isPlatform) return true;
  const sub = tenant.subscription;
  return !!sub?.plan?.[feature] && planInForce(sub, now);
}

/** A signed-in actor (permissions already effective) may use the feature. */
export function actorHasFeature(
  actor: { permissions: readonly Permission[]; tenant: FeatureTenant },
  feature: PlanFeature,
  now = new Date(),
): boolean {
  return (
    actor.permissions.includes(FEATURE_PERMISSION[feature]) && tenantHasFeature(actor.tenant, feature, now)
  );
}

/** The same for a user loaded by id (the viewer ticket's user), effective permissions computed now. */
export function userHasFeature(user: SessionUserRecord, feature: PlanFeature, now = new Date()): boolean {
  return actorHasFeature({ permissions: effectivePermissions(user, now), tenant: user.tenant }, feature, now);
}
