import { BUILT_IN_ROLES } from '@helix/shared';
import type { SessionUser, SessionSubscription } from '@helix/shared/schemas/session';
import type { SessionUserRecord, SubscriptionRecord } from '../sessions/session-user.include.ts';
import { abilitiesOf } from '../auth/abilities.policy.ts';
import { effectivePermissions } from '../auth/permissions.ts';
import { imageUrl } from './image-url.ts';
import { subscriptionState } from '../billing/subscription-state.ts';

const unix = (date: Date | null): number | null => (date ? Math.floor(date.getTime() / 1000) : null);

export function presentSubscription(subscription: SubscriptionRecord | null): SessionSubscription | null {
  if (!subscription) return null;
  return {
    status: subscription.status,
    activePayment: subscription.activePayment,
    isTrialPassed: subscription.isTrialPassed,
    trialEnd: unix(subscription.trialEnd),
    cancelAt: unix(subscription.cancelAt),
    canceledAt: unix(subscription.canceledAt),
    planId: subscription.planId,
    name: subscription.plan?.name ?? null,
    paymentActionUrl: subscription.paymentActionUrl ?? null,
  };
}

/** paymentPlan: the name of the tenant's plan, null when it has none or it was deactivated. */
export function paymentPlanOf(subscription: SubscriptionRecord | null): string | null {
  const kind = subscriptionState(subscription).kind;
  if (!subscription?.plan || kind === 'not_subscribed' || kind === 'deactivated') return null;
  return subscription.plan.name;
}

/** The session user (apps/api/API.md): the only shape in which a user record leaves the API at login. */
export function presentSessionUser(user: SessionUserRecord, now = new Date()): SessionUser {
  const roles = user.roles.map(({ role }) => ({ id: role.id, name: role.name })).sort((a, b) => a.id - b.id);
  // roleId: the built-in Admin role when held, else the first role.
  const primary = roles.find((r) => r.name === BUILT_IN_ROLES.admin) ?? roles[0];
  const subscription = user.tenant.subscription;
  const permissions = effectivePermissions(user, now);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    userName: user.userName,
    isAdmin: user.isAdmin,
    isOwner: user.isOwner,
    profilePicture: imageUrl(user.profilePicture),
    parentId: user.parentId,
    type: user.isAdmin ? 'admin' : user.isOwner ? 'owner' : 'user',
    roleId: primary?.id ?? null,
    roles,
    permissions,
    tenant: user.tenant.domainPrefix,
    tenantId: user.tenantId,
    stripeId: user.tenant.stripeCustomerId,
    referenceId: subscription?.stripeSubscriptionId ?? null,
    customBrandName: user.tenant.customBrandName,
    paymentPlan: paymentPlanOf(subscription),
    subscription: presentSubscription(subscription),
    version: user.version,
    abilities: abilitiesOf({ user, tenant: user.tenant, permissions }, now),
  };
}
