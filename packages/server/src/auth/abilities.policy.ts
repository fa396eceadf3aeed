import type { Permission } from '@helix/shared';
import type { Abilities } from '@helix/shared/schemas/session';
import { mayManageBilling, type BillingActor } from '../billing/billing.policy.ts';
import { planInForce, type StoredSubscriptionRow } from '../billing/subscription-state.ts';

interface ViewsPlan {
  unlimitedViews: boolean;
  viewLimit: number;
  additionalViewsPrice: number;
}

/**
 * Whether the tenant's plan sells additional views now (the Add Views rule): a plan in force with a
 * view limit and a price per thousand extra views, for a user without Model.unlimited_views.
 */
export function viewsForSale(
  subscription: (StoredSubscriptionRow & { plan: ViewsPlan | null }) | null | undefined,
  permissions: readonly string[],
  now = new Date(),
): boolean {
  const plan = subscription?.plan;
  return Boolean(
    plan &&
    planInForce(subscription, now) &&
    !permissions.includes('Model.unlimited_views') &&
    !plan.unlimitedViews &&
    plan.viewLimit > 0 &&
    plan.additionalViewsPrice > 0,
  );
}

/**
 * What the user may do, from the rules the calls enforce (billing.policy.ts, invite.policy.ts, the
 * routes' permissions): the session user carries it, so the web shows exactly what the server allows.
 */
export function abilitiesOf(actor: BillingActor, now = new Date()): Abilities {
  const can = (permission: Permission) => actor.permissions.includes(permission);
  const customer = !actor.user.isAdmin && !actor.tenant.isPlatform;
  const money = mayManageBilling(actor);
  return {
    buyViews: money && viewsForSale(actor.tenant.subscription, actor.permissions, now),
    manageBilling: money,
    inviteUsers: !actor.user.isAdmin && can('User.invite'),
    createRoles: can('Role.create'),
    editRoles: can('Role.update'),
    deleteRoles: can('Role.delete'),
    assignRoles: can('Role.assign'),
    editBranding: customer && can('Brand.update'),
    embedModels: can('Model.embed'),
  };
}
