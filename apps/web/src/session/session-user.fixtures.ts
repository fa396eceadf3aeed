import type { Permission } from '@helix/shared';
import type { SessionUser } from './session-user';

/** Test data: a signed-in customer user and an active subscription, shared by the web's unit tests. */
export const ACTIVE_SUBSCRIPTION = {
  status: 'active',
  activePayment: true,
  isTrialPassed: 0,
  trialEnd: null,
  cancelAt: null,
  planId: 7,
  name: 'Starter',
} satisfies NonNullable<SessionUser['subscription']>;

export const aSessionUser = (
  permissions: Permission[] = [],
  over: Partial<SessionUser> = {},
): SessionUser => ({
  id: 1,
  name: 'Ada',
  email: 'ada@example.com',
  userName: 'ada',
  isAdmin: false,
  roles: [],
  permissions,
  tenant: 'ada',
  subscription: null,
  ...over,
});
