import type { Permission } from '@helix/shared';
import { NO_SESSION_ABILITIES, type SessionAbilities } from '@helix/shared/schemas/abilities';
import type { SessionSubscription, SessionUser } from './session-user';

/** Session abilities as the server would send them: the named ones true, every other false. */
export const abilities = (...allowed: (keyof SessionAbilities)[]): SessionAbilities => ({
  ...NO_SESSION_ABILITIES,
  ...Object.fromEntries(allowed.map((key) => [key, true])),
});

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
