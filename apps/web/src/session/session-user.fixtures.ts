import type { Permission } from '@helix/shared';
import type { Abilities } from '@helix/shared/schemas/session';
import type { SessionSubscription, SessionUser } from './session-user';

/** The server's abilities when it allows nothing. */
export const NO_ABILITIES: Abilities = {
  buyViews: false,
  manageBilling: false,
  inviteUsers: false,
  createRoles: false,
  editRoles: false,
  deleteRoles: false,
  assignRoles: false,
  editBranding: false,
  embedModels: false,
};

/** Test data: a signed-in customer user and an active subscription, shared by the web's unit tests. */
export const ACTIVE_SUBSCRIPTION: SessionSubscription = {
  status: 'active',
  activePayment: true,
  isTrialPassed: false,
  trialEnd: null,
  cancelAt: null,
  planId: 7,
  name: 'Starter',
};

export const aSessionUser = (
  permissions: Permission[] = [],
  over: Partial<SessionUser> = {},
): SessionUser => ({
  id: 1,
  name: 'Ada',
  email: 'ada@example.com',
  userName: 'ada',
  isAdmin: false,
  isOwner: true,
  profilePicture: null,
  parentId: null,
  type: 'owner',
  roleId: null,
  roles: [],
  permissions,
  tenant: 'ada',
  tenantId: 1,
  stripeId: null,
  referenceId: null,
  customBrandName: null,
  paymentPlan: null,
  subscription: null,
  ...over,
});
