import { BUILT_IN_ROLES } from '@helix/shared';
import type { SessionAbilities } from '@helix/shared/schemas/abilities';
import { canReadPlatformAudit, canReadTenantAudit } from '../audit/audit.policy.ts';
import { canViewBilling, isSchoolUser, mayManageBilling } from '../billing/billing.policy.ts';
import { planInForce, type StoredSubscriptionRow } from '../billing/subscription-state.ts';
import { canInviteUsers } from '../invites/invite.policy.ts';
import { canManageLti, canViewClassStats } from '../lti/lti.policy.ts';
import {
  canAddModel,
  canEmbedModel,
  canLeadLesson,
  canListModels,
  isPlatformAdmin,
} from '../models/model.policy.ts';
import { canListSubscribers } from '../newsletter/newsletter.policy.ts';
import {
  canAddPlatformUser,
  canListPlatformPermissions,
  canListPlatformUsers,
  canViewPlatformUser,
} from '../platform-users/platform-user.policy.ts';
import { canEditProfile, canViewProfile } from '../profile/profile.policy.ts';
import { canCreateRole, canListRoles } from '../roles/role.policy.ts';
import type { PolicyActor } from '../sessions/session.service.ts';
import { canViewModelStats, canViewStats, canViewUserStats } from '../stats/stats.policy.ts';
import { supportTierOf } from '../support/support-tier.ts';
import { canWorkSupportQueue } from '../support/support.policy.ts';
import { canEditBranding } from '../tenants/branding.policy.ts';
import { canListUsers, canViewUser } from '../users/user.policy.ts';

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

/** The platform admin's sidebar (Sidebar.listing.view). */
const canSeeAdminSidebar = (actor: PolicyActor): boolean =>
  isPlatformAdmin(actor) && actor.permissions.includes('Sidebar.listing.view');

/** /projects (administration-content 2): the Admin role. */
const holdsAdminRole = (actor: PolicyActor): boolean =>
  actor.user.roles.some(({ role }) => role.name === BUILT_IN_ROLES.admin);

/**
 * The session's abilities (the pages a user may open and the actions that belong to no item), each
 * from the policy function its calls enforce: the session user carries them, so the route guards, the
 * menus and the global buttons show exactly what the server allows. Abilities on one item (a user, a
 * model, a link, a role) come with the item, from the same policies.
 */
export function abilitiesOf(actor: PolicyActor, now = new Date()): SessionAbilities {
  const school = isSchoolUser(actor);
  const sidebar = canSeeAdminSidebar(actor);
  return {
    platformUsers: canListPlatformUsers(actor),
    platformUserDetail: canViewPlatformUser(actor),
    addPlatformUser: canAddPlatformUser(actor),
    platformPermissions: canListPlatformPermissions(actor),
    catalogue: isPlatformAdmin(actor) && canListModels(actor),
    roles: canListRoles(actor),
    newsletter: canListSubscribers(actor),
    supportQueue: canWorkSupportQueue(actor),
    // The platform's log is an item of the admin sidebar.
    platformAudit: canReadPlatformAudit(actor) && sidebar,
    adminSidebar: sidebar,
    stats: canViewStats(actor),
    modelStats: canViewModelStats(actor),
    userStats: canViewUserStats(actor),
    classStats: canViewClassStats(actor),
    projects: holdsAdminRole(actor),
    profile: canViewProfile(actor),
    editProfile: canEditProfile(actor),
    links: canEmbedModel(actor),
    home: school && canListModels(actor),
    subscription: school,
    billing: canViewBilling(actor),
    tenantUsers: canListUsers(actor),
    tenantUserDetail: school && canViewUser(actor),
    inviteUsers: canInviteUsers(actor),
    editBranding: canEditBranding(actor),
    tenantAudit: canReadTenantAudit(actor),
    lti: canManageLti(actor),
    lessons: canLeadLesson(actor),
    addModel: canAddModel(actor),
    createRole: canCreateRole(actor),
    seeViewUsage: school && canListModels(actor),
    seeAdditionalViews: canViewBilling(actor),
    manageBilling: school && mayManageBilling(actor),
    buyViews: mayManageBilling(actor) && viewsForSale(actor.tenant.subscription, actor.permissions, now),
    transparentEmbed: canEmbedModel(actor) && actor.permissions.includes('Background.transparent'),
    prioritySupport: supportTierOf(actor, now) === 'priority',
  };
}
