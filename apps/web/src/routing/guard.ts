import type { SessionAbilities } from '@helix/shared/schemas/abilities';
import { loginPath } from '../api/failure';
import { abilitiesOf, hasActivePayment, type Session } from '../session/session-user';

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

/** Open to anyone, signed in or not (a live lesson's join and pupil pages: a pupil needs no account). */
const PUBLIC_PATHS = [
  /^\/embed\/[^/]+$/,
  /^\/share\/[^/]+$/,
  /^\/unauthorized$/,
  /^\/auth\/google$/,
  /^\/join(\/[^/]+)?$/,
  /^\/lesson\/[^/]+$/,
];

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
 * The pages the server's session abilities open (schemas/abilities.ts), checked in order: the first
 * pattern a path matches decides. An ability the session lacks sends it to /unauthorized. The server
 * decides who is on which side of the product: the platform admin's areas (/users, /roles, /models,
 * /news-letter, /support, /audit-log) are no school user's, and a school's (subscription, branding,
 * users list, home) no platform admin's (administration-content 6, "Route rules").
 */
const PAGE_ABILITIES: Array<{ path: RegExp; ability: keyof SessionAbilities }> = [
  { path: /^\/users\/add-user$/, ability: 'addPlatformUser' },
  { path: /^\/users\/user-detail(\/|$)/, ability: 'platformUserDetail' },
  { path: /^\/users(\/|$)/, ability: 'platformUsers' },
  { path: /^\/roles(\/|$)/, ability: 'roles' },
  { path: /^\/models(\/|$)/, ability: 'catalogue' },
  { path: /^\/news-letter(\/|$)/, ability: 'newsletter' },
  { path: /^\/support(\/|$)/, ability: 'supportQueue' },
  { path: /^\/audit-log$/, ability: 'platformAudit' },
  { path: /^\/permissions$/, ability: 'platformPermissions' },
  { path: /^\/stats$/, ability: 'stats' },
  { path: /^\/projects$/, ability: 'projects' },
  { path: /^\/subscription$/, ability: 'subscription' },
  { path: /^\/user\/settings\/subscription$/, ability: 'billing' },
  { path: /^\/user\/settings\/billing-history$/, ability: 'billing' },
  { path: /^\/user\/settings\/branding$/, ability: 'editBranding' },
  { path: /^\/user\/settings\/users-list\/user-detail\//, ability: 'tenantUserDetail' },
  { path: /^\/user\/settings\/users-list\/bulk-user-invite$/, ability: 'inviteUsers' },
  { path: /^\/user\/settings\/users-list(\/|$)/, ability: 'tenantUsers' },
  { path: /^\/user\/settings\/audit-log$/, ability: 'tenantAudit' },
  { path: /^\/user\/settings\/lti$/, ability: 'lti' },
  { path: /^\/user\/settings\/links$/, ability: 'links' },
  { path: /^\/user\/home$/, ability: 'home' },
  { path: /^\/user\/lessons\/[^/]+$/, ability: 'lessons' },
];

/** Payment return pages must survive the few seconds before the payment shows as active. */
const PAYMENT_RETURN = /^\/success(\/|$)/;

const UNAUTHORIZED = '/unauthorized';

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
  Boolean(user && abilitiesOf(user).subscription && authType === 'is-register' && !hasActivePayment(user));

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

  const can = abilitiesOf(user);
  const paying = hasActivePayment(user);
  // A school whose plan is not in force has lost its home grid: the subscription page is the way back.
  if (p === '/user/home' && can.subscription && !paying) return '/subscription';
  const page = PAGE_ABILITIES.find((entry) => entry.path.test(p));
  if (page && !can[page.ability]) return UNAUTHORIZED;

  if (p === '/') {
    if (can.subscription && !paying) return '/subscription';
    if (can.home) return '/user/home';
    // A platform admin who reads the catalogue starts on the users table (administration-content 6).
    if (can.catalogue) return '/users';
    return null;
  }
  if (p === '/subscription' && paying && can.billing) return '/user/settings/subscription';
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
