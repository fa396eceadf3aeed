import { BUILT_IN_ROLES, type Permission } from '@helix/shared';
import { loginPath } from '../api/failure';
import { hasActivePayment, hasPermission, hasRole, type Session } from '../session/session-user';

/**
 * Route guards of accounts section 4, as one pure decision: given a path and who is looking, where
 * should the browser go instead (null = stay).
 */
export interface GuardInput extends Session {
  /** White-label brand remembered in local storage; signed-out visitors go to its login page. */
  brand?: string | null;
}

export type PathKind = 'public' | 'guest' | 'authenticated';

const brandable = (base: string) => new RegExp(`^${base}(/[^/]+)?$`);

/** Open to anyone, signed in or not. */
const PUBLIC_PATHS = [/^\/embed\/[^/]+$/, /^\/share\/[^/]+$/, /^\/unauthorized$/, /^\/auth\/google$/];

/** Open without login; a signed-in user is sent to /. */
const GUEST_PATHS = [
  brandable('/login'),
  brandable('/signup'),
  /^\/authentication\/register$/,
  /^\/register$/,
  /^\/authentication\/reset-password$/,
  brandable('/forgot-password'),
  brandable('/set-password'),
  brandable('/choose-subscription'),
  /^\/subscription\/plans$/,
  /^\/guest-success(\/[^/]+){0,2}$/,
  /^\/invitation$/,
];

const CHOOSE_SUBSCRIPTION = brandable('/choose-subscription');

/**
 * Platform-admin areas. "A user-detail page" here is the platform one (/users/user-detail/{id}); the
 * tenant owner's own user detail lives under /user/settings/users-list, which the next list keeps
 * from admins. Read literally, the two rules would lock everybody out of that page.
 */
const ADMIN_ONLY = [
  /^\/users(\/|$)/,
  /^\/roles(\/|$)/,
  /^\/models(\/|$)/,
  /^\/news-letter(\/|$)/,
  /^\/support(\/|$)/,
  /^\/audit-log$/,
];

/** Subscriber areas an admin may not use: subscription, branding, users list and home. */
const NON_ADMIN_ONLY = [
  /^\/subscription$/,
  /^\/user\/settings\/subscription$/,
  /^\/user\/settings\/billing-history$/,
  /^\/user\/settings\/branding$/,
  /^\/user\/settings\/users-list(\/|$)/,
  /^\/user\/settings\/audit-log$/,
  /^\/user\/settings\/lti$/,
  /^\/user\/home$/,
];

/**
 * The school's audit log and its LMS (LTI) registrations are its owner's alone (the server's audit
 * and LTI policies): not a permission a role hands out, so they are not in PAGE_PERMISSIONS.
 */
const OWNER_ONLY = [/^\/user\/settings\/audit-log$/, /^\/user\/settings\/lti$/];

/**
 * Pages whose content is a list or record the server shows only with a permission: without it the
 * browser goes to /unauthorized instead of a page that fails to load (any one of `anyOf` will do).
 */
const PAGE_PERMISSIONS: Array<{ path: RegExp; anyOf: Permission[] }> = [
  { path: /^\/users$/, anyOf: ['User.listing.view'] },
  { path: /^\/users\/user-detail\//, anyOf: ['User.detail.view'] },
  { path: /^\/models$/, anyOf: ['Model.listing.view'] },
  { path: /^\/stats$/, anyOf: ['Model.listing.view', 'User.listing.view'] },
  { path: /^\/roles$/, anyOf: ['Role.listing.view'] },
  { path: /^\/permissions$/, anyOf: ['Permission.listing.view'] },
  { path: /^\/user\/settings\/users-list$/, anyOf: ['User.listing.view'] },
  { path: /^\/user\/settings\/users-list\/user-detail\//, anyOf: ['User.detail.view'] },
  { path: /^\/user\/settings\/users-list\/bulk-user-invite$/, anyOf: ['User.invite'] },
  { path: /^\/user\/settings\/links$/, anyOf: ['Model.embed'] },
  // The platform admin's audit log goes with the admin sidebar (the owner's: OWNER_ONLY).
  { path: /^\/audit-log$/, anyOf: ['Sidebar.listing.view'] },
];

/** Payment return pages must survive the few seconds before the payment shows as active. */
const PAYMENT_RETURN = /^\/success(\/|$)/;

export const UNAUTHORIZED = '/unauthorized';

export function normalizePath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURI(path);
  } catch {
    // Keep the raw path; it simply will not match a protected pattern any better.
  }
  // React Router matches paths case-insensitively, so the guard must too.
  const lower = (decoded.split(/[?#]/)[0] ?? '').toLowerCase();
  const trimmed = lower.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export function pathKind(path: string): PathKind {
  const p = normalizePath(path);
  if (PUBLIC_PATHS.some((re) => re.test(p))) return 'public';
  if (GUEST_PATHS.some((re) => re.test(p))) return 'guest';
  return 'authenticated';
}

/** Just signed up and not yet paying: the plan wizard is the only way forward. */
const isJustRegisteredUnsubscribed = ({ user, authType }: Session): boolean =>
  Boolean(user && !user.isAdmin && authType === 'is-register' && !hasActivePayment(user));

export function decide(path: string, session: GuardInput): string | null {
  const p = normalizePath(path);
  const kind = pathKind(p);
  const { user } = session;

  if (kind === 'public') return null;

  if (kind === 'guest') {
    if (!user) return null;
    if (CHOOSE_SUBSCRIPTION.test(p) && isJustRegisteredUnsubscribed(session)) return null;
    return '/';
  }

  if (!user) return loginPath(session.brand);

  if (isJustRegisteredUnsubscribed(session) && !PAYMENT_RETURN.test(p)) {
    return session.brand
      ? `/choose-subscription/${encodeURIComponent(session.brand)}`
      : '/choose-subscription';
  }

  if (!user.isAdmin && ADMIN_ONLY.some((re) => re.test(p))) return UNAUTHORIZED;
  if (user.isAdmin && NON_ADMIN_ONLY.some((re) => re.test(p))) return UNAUTHORIZED;
  if (p === '/projects' && !hasRole(user, BUILT_IN_ROLES.admin)) return UNAUTHORIZED;
  if (!user.isOwner && OWNER_ONLY.some((re) => re.test(p))) return UNAUTHORIZED;
  const needs = PAGE_PERMISSIONS.find((page) => page.path.test(p));
  if (needs && !needs.anyOf.some((permission) => hasPermission(user, permission))) return UNAUTHORIZED;

  const paying = hasActivePayment(user);
  if (p === '/') {
    if (!user.isAdmin && !paying) return '/subscription';
    if (hasPermission(user, 'Model.listing.view')) return user.isAdmin ? '/users' : '/user/home';
    return null;
  }
  if (p === '/user/home' && !user.isAdmin && !paying) return '/subscription';
  if (p === '/subscription' && paying && hasPermission(user, 'Subscription.listing.view')) {
    return '/user/settings/subscription';
  }
  return null;
}

/** Follows redirects to the final stop, so the browser lands in one hop. Stops on a cycle. */
export function resolveRedirect(path: string, session: GuardInput): string | null {
  const seen = new Set([normalizePath(path)]);
  let target = decide(path, session);
  let final: string | null = null;
  while (target !== null && !seen.has(normalizePath(target))) {
    final = target;
    seen.add(normalizePath(target));
    target = decide(target, session);
  }
  return final;
}
