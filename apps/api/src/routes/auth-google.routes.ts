import type { Request, RequestHandler, Router } from 'express';
import { Passport } from 'passport';
import { Strategy as GoogleStrategy, type Profile } from 'passport-google-oauth20';
import { GoogleStartQuery, MSG } from '@helix/shared';
import { AuthProvidersView } from '@helix/shared/schemas/session';
import { AppError } from '@helix/server';
import type { ServerDeps } from '@helix/server/deps';
import { redisKey } from '@helix/server/redis';
import { randomToken } from '@helix/server/tokens';
import {
  browserBinding,
  GoogleProfile,
  sameBrowser,
  storeGoogleProfile,
} from '@helix/server/accounts/google.command';
import { OAUTH_STATE_TTL_SECONDS, oauthCookie } from '../http/oauth-cookie.ts';
import { inputOf, NoQuery } from '../http/validate.ts';
import { redirect } from '../openapi/describe.ts';
import { API, defineRoute, routerOf } from './define-route.ts';

const NONCE = /^[A-Za-z0-9_-]{20,100}$/;

interface StartState {
  type: 'login' | 'signup';
  /** browserBinding of the cookie set when this sign-in started. */
  browser: string;
}

type StoreCallback = (err: Error | null, state?: string) => void;
type VerifyCallback = (err: Error | null, ok: boolean, state?: StartState | { message: string }) => void;

const isStartState = (value: unknown): value is StartState =>
  typeof value === 'object' &&
  value !== null &&
  ((value as StartState).type === 'login' || (value as StartState).type === 'signup') &&
  typeof (value as StartState).browser === 'string';

function parseState(raw: string | null): StartState | null {
  if (!raw) return null;
  try {
    const state: unknown = JSON.parse(raw);
    return isStartState(state) ? state : null;
  } catch {
    return null;
  }
}

/**
 * passport-oauth2 state store in Redis: the state sent to Google is a random nonce naming what we keep
 * about the round trip (login or signup, and which browser started it). Single use; the callback is
 * accepted only from the browser whose cookie matches.
 */
function redisStateStore(deps: Pick<ServerDeps, 'redis' | 'config'>) {
  const key = (nonce: string) => redisKey(deps.config.REDIS_PREFIX, 'oauth', 'state', nonce);
  const cookie = oauthCookie(deps.config);
  const invalid = { message: 'invalid state' };
  return {
    // The arity (4) tells passport-oauth2 to hand over the `state` option of authenticate().
    store(_req: Request, state: StartState | undefined, _meta: unknown, callback: StoreCallback) {
      if (!isStartState(state)) {
        callback(new Error('google sign-in started without a browser binding'));
        return;
      }
      const nonce = randomToken();
      deps.redis.set(key(nonce), JSON.stringify(state), 'EX', OAUTH_STATE_TTL_SECONDS).then(
        () => callback(null, nonce),
        (err: Error) => callback(err),
      );
    },
    verify(req: Request, nonce: unknown, callback: VerifyCallback) {
      if (typeof nonce !== 'string' || !NONCE.test(nonce)) {
        callback(null, false, invalid);
        return;
      }
      deps.redis.getdel(key(nonce)).then(
        (raw) => {
          const state = parseState(raw);
          if (state && sameBrowser(state.browser, cookie.read(req))) callback(null, true, state);
          else callback(null, false, invalid);
        },
        (err: Error) => callback(err, false),
      );
    },
  };
}

function toGoogleProfile(profile: Profile) {
  const email = profile.emails?.[0];
  return GoogleProfile.safeParse({
    googleId: profile.id,
    email: email?.value,
    emailVerified:
      (email as { verified?: boolean | string } | undefined)?.verified === true ||
      (email as { verified?: boolean | string } | undefined)?.verified === 'true',
    name: (profile.displayName ?? '').slice(0, 100),
    picture: profile.photos?.[0]?.value ?? null,
  });
}

interface Google {
  /** The web app's /auth/google with these parameters. */
  back: (params: Record<string, string | undefined>) => string;
  cookie: ReturnType<typeof oauthCookie>;
  /** Without GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET: none. */
  passport: InstanceType<typeof Passport> | null;
}

/** The app's Google sign-in, made once per app (both routes share its passport). */
const googles = new WeakMap<ServerDeps, Google>();
function googleOf(deps: ServerDeps): Google {
  const known = googles.get(deps);
  if (known) return known;
  const { config } = deps;
  const publicUrl = config.PUBLIC_URL.replace(/\/+$/, '');
  const back = (params: Record<string, string | undefined>) => {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v !== undefined) query.set(k, v);
    return `${publicUrl}/auth/google?${query.toString()}`;
  };
  const clientID = config.GOOGLE_CLIENT_ID;
  const clientSecret = config.GOOGLE_CLIENT_SECRET;
  let passport: InstanceType<typeof Passport> | null = null;
  if (clientID && clientSecret) {
    passport = new Passport();
    passport.use(
      new GoogleStrategy(
        {
          clientID,
          clientSecret,
          callbackURL: `${publicUrl}/api/auth/google/callback`,
          authorizationURL: config.GOOGLE_AUTHORIZATION_URL,
          tokenURL: config.GOOGLE_TOKEN_URL,
          userProfileURL: config.GOOGLE_USERINFO_URL,
          scope: ['profile', 'email'],
          store: redisStateStore(deps) as never,
        },
        (_accessToken, _refreshToken, profile, done) => {
          done(null, profile);
        },
      ),
    );
  }
  const google = { back, cookie: oauthCookie(config), passport };
  googles.set(deps, google);
  return google;
}

/**
 * Without Google configured, a browser that reaches the sign-in (an old page, a bookmark) ends on the
 * web's failure page, which shows 'Something went wrong!' (the spec's Google failure), never a raw
 * JSON answer; a JSON caller gets 404.
 */
const toFailurePage =
  ({ back }: Google): RequestHandler =>
  (req, res) => {
    const type = req.query.type === 'signup' ? 'signup' : 'login';
    if (req.accepts(['html', 'json']) === 'json') throw AppError.notFound(MSG.googleDisabled);
    res.redirect(302, back({ error: '1', type }));
  };

/**
 * Google sign-in, first half: GET /auth/google?type=login|signup sets the browser's sign-in cookie and
 * sends the browser to the provider; the provider returns to /auth/google/callback, which (from that
 * browser only) keeps the profile behind a one-time code bound to the same cookie and sends the browser
 * to the web app's /auth/google?code=..&type=.. (or ?error=1). Provider addresses
 * come from configuration, so tests run against a local mock. Without GOOGLE_CLIENT_ID the browser is
 * sent to the web's failure page (a JSON caller gets 404), and GET /auth/providers says so, so the web
 * shows no Google button.
 */
const routes = [
  defineRoute({
    method: 'get',
    path: '/api/auth/providers',
    tag: 'Accounts',
    summary: 'Which sign-in providers are configured',
    query: NoQuery,
    ok: AuthProvidersView,
    handler: (deps) => {
      const answer: AuthProvidersView = { google: googleOf(deps).passport !== null };
      return (_req, res) => {
        res.json(answer);
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/auth/google',
    tag: 'Accounts',
    summary: 'Google sign-in, first half: to the provider',
    description: 'A JSON caller gets 404 when Google sign-in is not configured.',
    query: GoogleStartQuery,
    errors: [404],
    ok: redirect("To the provider (or to the web's failure page)."),
    handler: (deps) => {
      const google = googleOf(deps);
      const { passport, cookie } = google;
      if (!passport) return toFailurePage(google);
      return (req, res, next) => {
        const { type } = inputOf(req, GoogleStartQuery);
        const state: StartState = { type, browser: browserBinding(cookie.issue(res)) };
        passport.authenticate('google', { session: false, state } as never)(req, res, next);
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/auth/google/callback',
    tag: 'Accounts',
    summary: "The provider's return (browser only)",
    errors: [404],
    ok: redirect("To the web app's /auth/google with a one-time code, or with error=1."),
    handler: (deps) => {
      const google = googleOf(deps);
      const { passport, cookie, back } = google;
      if (!passport) return toFailurePage(google);
      return (req, res, next) => {
        passport.authenticate(
          'google',
          { session: false },
          (err: unknown, profile: Profile | false, info: { state?: StartState } | undefined) => {
            const state = info?.state;
            const type = state?.type === 'signup' ? 'signup' : 'login';
            const fail = () => {
              cookie.clear(res);
              res.redirect(302, back({ error: '1', type }));
            };
            if (err || !profile || !state) {
              if (err) req.log?.warn({ err }, 'google sign-in failed');
              fail();
              return;
            }
            const parsed = toGoogleProfile(profile);
            if (!parsed.success) {
              req.log?.warn('google profile without a usable e-mail address');
              fail();
              return;
            }
            // The cookie stays: the web app's /auth/google page redeems the code with it.
            storeGoogleProfile(deps, parsed.data, state.browser).then(
              (code) => res.redirect(302, back({ code, type })),
              next,
            );
          },
        )(req, res, next);
      };
    },
  }),
];

export const googleRoutes = (deps: ServerDeps): Router => routerOf(deps, API, routes);
