import type { AuthType, Permission } from '@helix/shared';

/** The session user as the API presents it (API.md `SessionUser`), plus the remember-me flag of the login. */
export interface SessionSubscription {
  status: string;
  activePayment: boolean;
  isTrialPassed: boolean | number;
  trialEnd: number | null;
  cancelAt: number | null;
  planId: number | null;
  name: string;
}

export interface SessionRole {
  id: number;
  name: string;
}

export interface SessionUser {
  id: number;
  name: string;
  email: string;
  userName: string;
  isAdmin: boolean;
  isOwner?: boolean;
  profilePicture?: string | null;
  parentId?: number | null;
  type?: 'admin' | 'owner' | 'user';
  roleId?: number | null;
  roles: SessionRole[];
  permissions: string[];
  tenant: string;
  tenantId?: number;
  stripeId?: string | null;
  referenceId?: string | null;
  customBrandName?: string | null;
  paymentPlan?: string | null;
  subscription: SessionSubscription | null;
  rememberMe?: boolean;
}

/** What the guard and the menus need to know about who is looking. */
export interface Session {
  user: SessionUser | null;
  authType: AuthType | null;
}

export const hasPermission = (user: SessionUser | null, permission: Permission): boolean =>
  Boolean(user?.permissions.includes(permission));

export const hasActivePayment = (user: SessionUser | null): boolean =>
  Boolean(user?.subscription?.activePayment);

export const hasRole = (user: SessionUser | null, role: string): boolean =>
  Boolean(user?.roles.some((r) => r.name === role));

/** The header's Settings item: an admin or a subscribed user. */
export const canSeeSettings = (user: SessionUser | null): boolean =>
  Boolean(user && (user.isAdmin || hasActivePayment(user)));

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Reads the `user` cookie. Anything that is not a recognisable session user counts as corrupt, and a
 * corrupt cookie logs the user out (accounts 4), so this check is deliberately strict on the fields the
 * app relies on.
 */
export function parseSessionUser(raw: string | undefined): { user: SessionUser | null; corrupt: boolean } {
  if (raw === undefined || raw === '') return { user: null, corrupt: false };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { user: null, corrupt: true };
  }
  if (!isSessionUser(value)) return { user: null, corrupt: true };
  return { user: value, corrupt: false };
}

export function isSessionUser(value: unknown): value is SessionUser {
  if (!isObject(value)) return false;
  const { id, name, email, isAdmin, roles, permissions, tenant, subscription } = value;
  return (
    typeof id === 'number' &&
    typeof name === 'string' &&
    typeof email === 'string' &&
    typeof isAdmin === 'boolean' &&
    typeof tenant === 'string' &&
    Array.isArray(permissions) &&
    permissions.every((p) => typeof p === 'string') &&
    Array.isArray(roles) &&
    roles.every((r) => isObject(r) && typeof r.name === 'string') &&
    (subscription === null || subscription === undefined || isObject(subscription))
  );
}

/** Browsers silently drop cookies over ~4 KB, which would look like a logout, so big fields stay out. */
export const MAX_USER_COOKIE_CHARS = 3000;

export function serializeSessionUser(user: SessionUser): string {
  const full = JSON.stringify({ ...user, subscription: user.subscription ?? null });
  if (full.length <= MAX_USER_COOKIE_CHARS) return full;
  return JSON.stringify({ ...user, subscription: user.subscription ?? null, profilePicture: null });
}
