import { describe, expect, it } from 'vitest';
import type { AuthType } from '@helix/shared';
import type { SessionAbilities } from '@helix/shared/schemas/abilities';
import type { SessionUser } from '../session/session-user';
import { abilities, ACTIVE_SUBSCRIPTION, aSessionUser } from '../session/session-user.fixtures';
import { decide, normalizePath, pathKind, resolveRedirect, type GuardInput } from './guard';

type Ability = keyof SessionAbilities;

/** A school's user (the server's `subscription` ability) with these session abilities. */
const user = (over: Partial<SessionUser> = {}, can: Ability[] = []): SessionUser =>
  aSessionUser([], {
    roles: [{ id: 2, name: 'User' }],
    abilities: abilities('subscription', ...can),
    ...over,
  });
/** A platform admin with these session abilities (no school page: no `subscription`). */
const platform = (can: Ability[] = []): SessionUser =>
  aSessionUser([], { isAdmin: true, roles: [{ id: 1, name: 'Admin' }], abilities: abilities(...can) });

const paying = ACTIVE_SUBSCRIPTION;
/** Deactivated: the trial passed and the plan was cancelled or never paid (no longer in force). */
const unpaid = { ...paying, status: 'deactivated' as const, activePayment: false };

const as = (
  u: SessionUser | null,
  authType: AuthType | null = 'is-loggedin',
  brand: string | null = null,
): GuardInput => ({
  user: u,
  authType: u ? authType : null,
  brand,
});

const guest = as(null);
const owner = user({ subscription: paying }, ['home', 'billing']);
/** A lapsed plan: the server no longer gives the home grid. */
const unpaidOwner = user({ subscription: unpaid });
const admin = platform(['catalogue', 'projects']);
/** With the abilities of every platform page (PAGE_ABILITIES in guard.ts). */
const fullAdmin = platform([
  'catalogue',
  'platformUsers',
  'platformUserDetail',
  'addPlatformUser',
  'roles',
  'newsletter',
  'supportQueue',
  'projects',
]);
const fullOwner = user({ subscription: paying }, ['home', 'tenantUserDetail']);

const GUEST_ROUTES = [
  '/login',
  '/login/acme',
  '/signup',
  '/signup/acme',
  '/authentication/register',
  '/register',
  '/authentication/reset-password',
  '/forgot-password',
  '/forgot-password/acme',
  '/set-password',
  '/set-password/acme',
  '/choose-subscription',
  '/choose-subscription/acme',
  '/subscription/plans',
  '/guest-success',
  '/guest-success/trialing',
  '/guest-success/trialing/7',
  '/guest-success/subscribe/7',
  '/invitation',
];
const PUBLIC_ROUTES = [
  '/embed/abc',
  '/share/abc',
  '/unauthorized',
  '/auth/google',
  // A live lesson's join and pupil pages: a pupil needs no account, a signed-in one is not sent away.
  '/join',
  '/join/ABC234',
  '/lesson/l-1',
];
const AUTH_ROUTES = [
  '/',
  '/subscription',
  '/user/settings/subscription',
  '/success',
  '/success/subscribe',
  '/success/subscribe/7',
  '/success/unsubscribe',
  '/success/trialing/7',
  '/users',
  '/users/add-user',
  '/users/user-detail/3',
  '/user/settings',
  '/user/settings/profile',
  '/user/settings/branding',
  '/user/settings/billing-history',
  '/user/settings/users-list',
  '/user/settings/users-list/user-detail/3',
  '/user/settings/users-list/bulk-user-invite',
  '/models',
  '/user/home',
  '/stats',
  '/roles',
  '/permissions',
  '/news-letter',
  '/support',
  '/audit-log',
  '/user/settings/audit-log',
  '/user/settings/lti',
  '/projects',
  // A teacher's live lesson: any signed-in user reaches it, the API answers 403 without Lesson.lead.
  '/user/lessons/l-1',
];

describe('path kinds', () => {
  it.each(PUBLIC_ROUTES)('%s is public', (p) => expect(pathKind(p)).toBe('public'));
  it.each(GUEST_ROUTES)('%s is a guest route', (p) => expect(pathKind(p)).toBe('guest'));
  it.each(AUTH_ROUTES)('%s needs a login', (p) => expect(pathKind(p)).toBe('authenticated'));

  it('normalises case, trailing slashes and query strings like the router does', () => {
    expect(normalizePath('/Users/')).toBe('/users');
    expect(normalizePath('/login?x=1')).toBe('/login');
    expect(normalizePath('')).toBe('/');
    expect(decide('/USERS', as(owner))).toBe('/unauthorized');
  });
});

describe('public routes', () => {
  it.each(PUBLIC_ROUTES)('%s is open to everybody', (p) => {
    for (const s of [guest, as(owner), as(admin), as(unpaidOwner, 'is-register')])
      expect(decide(p, s)).toBeNull();
  });
});

describe('unauthenticated users', () => {
  it.each(AUTH_ROUTES)('go from %s to /login', (p) => expect(decide(p, guest)).toBe('/login'));
  it('go to the brand login when a brand is remembered', () => {
    expect(decide('/user/home', as(null, null, 'acme'))).toBe('/login/acme');
  });
  it.each(GUEST_ROUTES)('may open %s', (p) => expect(decide(p, guest)).toBeNull());
});

describe('guest routes', () => {
  it.each(GUEST_ROUTES)('send a signed-in user from %s to /', (p) => {
    expect(decide(p, as(owner))).toBe('/');
    expect(decide(p, as(admin))).toBe('/');
  });
  it('let a just-registered unsubscribed user use the plan wizard', () => {
    const fresh = user({ subscription: null });
    expect(decide('/choose-subscription', as(fresh, 'is-register'))).toBeNull();
    expect(decide('/choose-subscription/acme', as(fresh, 'is-register'))).toBeNull();
    expect(decide('/login', as(fresh, 'is-register'))).toBe('/');
  });
});

describe('just-registered, unsubscribed users', () => {
  const fresh = as(user({ subscription: null }), 'is-register');
  it.each(['/', '/user/home', '/subscription', '/user/settings/profile', '/stats'])(
    'go from %s to /choose-subscription',
    (p) => expect(decide(p, fresh)).toBe('/choose-subscription'),
  );
  it('keep the brand', () => {
    expect(decide('/', { ...fresh, brand: 'acme' })).toBe('/choose-subscription/acme');
  });
  it('may land on the payment return pages', () => {
    expect(decide('/success/subscribe/7', fresh)).toBeNull();
  });
  it('are treated as ordinary users once they pay, or when they logged in', () => {
    expect(decide('/user/home', as(owner, 'is-register'))).toBeNull();
    expect(decide('/', as(user({ subscription: null }), 'is-loggedin'))).toBe('/subscription');
  });
});

describe('non-admins without active payment', () => {
  it('go from / and /user/home to /subscription', () => {
    expect(decide('/', as(unpaidOwner))).toBe('/subscription');
    expect(decide('/user/home', as(unpaidOwner))).toBe('/subscription');
    expect(decide('/user/home', as(user()))).toBe('/subscription');
  });
  it('stay on /subscription to choose a plan', () => {
    expect(decide('/subscription', as(unpaidOwner))).toBeNull();
  });
});

describe('subscription states (the shared subscription-state module)', () => {
  const DAY = 24 * 60 * 60;
  const nowS = Math.floor(Date.now() / 1000);
  const withSub = (over: Partial<NonNullable<SessionUser['subscription']>>) =>
    as(user({ subscription: { ...paying, ...over } }, ['home']));
  it('counts a running trial as subscribed', () => {
    const trial = withSub({ status: 'trialing', activePayment: true, trialEnd: nowS + 10 * DAY });
    expect(decide('/user/home', trial)).toBeNull();
    expect(decide('/', trial)).toBe('/user/home');
  });
  it('keeps the plan while a failed payment is retried (the banner asks for a new card)', () => {
    expect(decide('/user/home', withSub({ status: 'past_due', activePayment: false }))).toBeNull();
  });
  it('keeps a cancelled plan until its end date, then sends the user to choose one', () => {
    const cancelled = { status: 'canceled' as const, canceledAt: nowS - DAY };
    expect(decide('/user/home', withSub({ ...cancelled, cancelAt: nowS + 5 * DAY }))).toBeNull();
    expect(decide('/user/home', withSub({ ...cancelled, cancelAt: nowS - 60 }))).toBe('/subscription');
  });
  it('sends a deactivated, an incomplete or a plan-less tenant to /subscription', () => {
    expect(decide('/user/home', withSub({ status: 'deactivated', activePayment: false }))).toBe(
      '/subscription',
    );
    expect(decide('/user/home', withSub({ status: 'incomplete', activePayment: false }))).toBe(
      '/subscription',
    );
    expect(decide('/user/home', withSub({ planId: null }))).toBe('/subscription');
  });
  it('lets a just-registered visitor on a trial past the plan wizard', () => {
    const trial = user({ subscription: { ...paying, status: 'trialing', trialEnd: nowS + DAY } }, ['home']);
    expect(decide('/choose-subscription', as(trial, 'is-register'))).toBe('/');
    expect(decide('/user/home', as(trial, 'is-register'))).toBeNull();
  });
});

describe('/subscription', () => {
  it('sends a subscribed user with the billing ability to the settings plan page', () => {
    expect(decide('/subscription', as(owner))).toBe('/user/settings/subscription');
  });
  it('keeps a subscribed user without it', () => {
    expect(decide('/subscription', as(user({ subscription: paying })))).toBeNull();
  });
});

describe('admin-only areas', () => {
  it.each([
    '/users',
    '/users/add-user',
    '/users/user-detail/3',
    '/roles',
    '/models',
    '/news-letter',
    '/support',
  ])('send a non-admin from %s to /unauthorized', (p) => expect(decide(p, as(owner))).toBe('/unauthorized'));
  it.each([
    '/users',
    '/users/add-user',
    '/users/user-detail/3',
    '/roles',
    '/models',
    '/news-letter',
    '/support',
  ])('let an admin open %s', (p) => expect(decide(p, as(fullAdmin))).toBeNull());
  it("lets the owner open their own users' detail page", () => {
    expect(decide('/user/settings/users-list/user-detail/3', as(fullOwner))).toBeNull();
  });
});

describe('pages an ability opens', () => {
  it.each([
    ['/users', 'platformUsers'],
    ['/users/add-user', 'addPlatformUser'],
    ['/users/user-detail/3', 'platformUserDetail'],
    ['/roles', 'roles'],
    ['/permissions', 'platformPermissions'],
    ['/models', 'catalogue'],
    ['/news-letter', 'newsletter'],
    ['/support', 'supportQueue'],
    ['/audit-log', 'platformAudit'],
  ] as const)('send an admin without it from %s to /unauthorized (%s)', (p, ability) => {
    expect(decide(p, as(platform([])))).toBe('/unauthorized');
    expect(decide(p, as(platform([ability])))).toBeNull();
  });
  it.each([
    ['/user/settings/users-list', 'tenantUsers'],
    ['/user/settings/users-list/user-detail/3', 'tenantUserDetail'],
    ['/user/settings/users-list/bulk-user-invite', 'inviteUsers'],
    ['/user/settings/links', 'links'],
    ['/user/settings/branding', 'editBranding'],
    ['/user/settings/subscription', 'billing'],
    ['/user/settings/billing-history', 'billing'],
  ] as const)('send a member without it from %s to /unauthorized (%s)', (p, ability) => {
    expect(decide(p, as(user({ subscription: paying }, ['home'])))).toBe('/unauthorized');
    expect(decide(p, as(user({ subscription: paying }, ['home', ability])))).toBeNull();
  });
  it('statistics are for whom the server gives them: a plain User lands on /unauthorized', () => {
    expect(decide('/stats', as(owner))).toBe('/unauthorized');
    expect(decide('/stats', as(user({ subscription: paying }, ['home', 'stats'])))).toBeNull();
    expect(decide('/stats', as(platform([])))).toBe('/unauthorized');
    expect(decide('/stats', as(platform(['stats'])))).toBeNull();
  });
  it('reads nothing but the abilities: permissions and flags alone open no page', () => {
    const flagged = aSessionUser(['User.listing.view', 'Model.listing.view', 'Role.listing.view'], {
      isAdmin: true,
      isOwner: true,
      roles: [{ id: 1, name: 'Admin' }],
    });
    for (const p of ['/users', '/roles', '/stats', '/user/settings/users-list', '/projects'])
      expect(decide(p, as(flagged))).toBe('/unauthorized');
  });
});

describe('subscriber areas', () => {
  it.each([
    '/subscription',
    '/user/settings/subscription',
    '/user/settings/billing-history',
    '/user/settings/branding',
    '/user/settings/users-list',
    '/user/settings/users-list/user-detail/3',
    '/user/settings/users-list/bulk-user-invite',
    '/user/home',
  ])('send an admin from %s to /unauthorized', (p) => expect(decide(p, as(admin))).toBe('/unauthorized'));
  it('let an admin use the profile', () => {
    expect(decide('/user/settings/profile', as(admin))).toBeNull();
  });
});

describe('audit log', () => {
  it("is the school owner's under settings, and the platform admin's at /audit-log", () => {
    expect(
      decide('/user/settings/audit-log', as(user({ subscription: paying }, ['tenantAudit']))),
    ).toBeNull();
    expect(decide('/user/settings/audit-log', as(owner))).toBe('/unauthorized');
    expect(decide('/audit-log', as(user({ subscription: paying }, ['tenantAudit'])))).toBe('/unauthorized');
    expect(decide('/audit-log', as(platform(['platformAudit'])))).toBeNull();
    expect(decide('/audit-log', as(admin))).toBe('/unauthorized');
  });
});

describe('LMS (LTI) settings', () => {
  it('open with the lti ability alone', () => {
    expect(decide('/user/settings/lti', as(user({ subscription: paying }, ['lti'])))).toBeNull();
    expect(decide('/user/settings/lti', as(owner))).toBe('/unauthorized');
  });
});

describe('/projects', () => {
  it('needs the projects ability (the Admin role, as the server reads it)', () => {
    expect(decide('/projects', as(owner))).toBe('/unauthorized');
    expect(decide('/projects', as(user({ subscription: paying }, ['projects'])))).toBeNull();
    expect(decide('/projects', as(admin))).toBeNull();
    expect(decide('/projects', as(platform([])))).toBe('/unauthorized');
  });
});

describe('/', () => {
  it('sends a school user with the home grid to /user/home', () => {
    expect(decide('/', as(owner))).toBe('/user/home');
  });
  it('sends a platform admin who reads the catalogue to /users', () => {
    expect(decide('/', as(admin))).toBe('/users');
  });
  it('stays on the dashboard without the permission', () => {
    expect(decide('/', as(user({ subscription: paying })))).toBeNull();
    expect(decide('/', as(platform([])))).toBeNull();
  });
});

describe('resolveRedirect', () => {
  it('lands in one hop', () => {
    expect(resolveRedirect('/login', as(unpaidOwner))).toBe('/subscription');
    expect(resolveRedirect('/login', as(owner))).toBe('/user/home');
    expect(resolveRedirect('/signup', as(user(), 'is-register'))).toBe('/choose-subscription');
    expect(resolveRedirect('/user/home', as(owner))).toBeNull();
  });

  it('always ends on a page the guard accepts (no loops)', () => {
    const sessions = [
      guest,
      as(owner),
      as(unpaidOwner),
      as(admin),
      as(user()),
      as(user(), 'is-register'),
      as(owner, 'is-register'),
      as(user({}, ['billing']), 'is-register', 'acme'),
      as(fullAdmin),
      as(fullOwner),
      as(null, null, 'acme'),
    ];
    for (const s of sessions) {
      for (const p of [...GUEST_ROUTES, ...PUBLIC_ROUTES, ...AUTH_ROUTES]) {
        const final = resolveRedirect(p, s);
        if (final !== null) expect(decide(final, s), `${p} -> ${final}`).toBeNull();
      }
    }
  });
});
