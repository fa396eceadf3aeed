import { OAuth2Server } from 'oauth2-mock-server';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { AuthResponse } from '@helix/shared/schemas/session';
import { createHarness, type Harness } from '../../test/harness.ts';
import { createTenant, createUser, seedRoles, uniqueName } from '@helix/server/testing/factories';

let h: Harness;
let google: OAuth2Server;
let userinfo: Record<string, unknown> = {};

beforeAll(async () => {
  google = new OAuth2Server();
  await google.issuer.keys.generate('RS256');
  await google.start(0, '127.0.0.1');
  google.service.on('beforeUserinfo', (response: { body: unknown }) => {
    response.body = userinfo;
  });
  const issuer = google.issuer.url!;
  h = await createHarness({
    GOOGLE_CLIENT_ID: 'helix-test-client',
    GOOGLE_CLIENT_SECRET: 'helix-test-secret',
    GOOGLE_AUTHORIZATION_URL: `${issuer}/authorize`,
    GOOGLE_TOKEN_URL: `${issuer}/token`,
    GOOGLE_USERINFO_URL: `${issuer}/userinfo`,
  });
  await seedRoles(h.db);
});

afterAll(async () => {
  await h?.close();
  await google?.stop();
});

/** The sign-in cookie a response sets (name=value), and its attributes. */
function signInCookie(res: request.Response) {
  const header = ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('helix_oauth='));
  return header === undefined ? undefined : { pair: header.split(';')[0]!, header };
}

/**
 * The browser's round trip, redirect by redirect: our start URL (which sets the browser's sign-in
 * cookie), the provider's authorize page (which answers at once), our callback (with the cookie), and
 * finally the web app's /auth/google page. `cookie` is what the browser sends on the callback; by
 * default the one the start set.
 */
async function roundTrip(type: 'login' | 'signup', options: { cookie?: string | null } = {}) {
  const start = await request(h.app).get(`/api/auth/google?type=${type}`);
  expect(start.status).toBe(302);
  const set = signInCookie(start);
  expect(set?.header).toMatch(/^helix_oauth=[A-Za-z0-9_-]{43}; /);
  expect(set?.header).toMatch(/; Path=\/api(;|$)/);
  expect(set?.header).toMatch(/; HttpOnly(;|$)/);
  expect(set?.header).toMatch(/; SameSite=Lax(;|$)/);
  const cookie = options.cookie === undefined ? set!.pair : options.cookie;
  const authorize = new URL(start.headers.location!);
  expect(authorize.origin + authorize.pathname).toBe(`${google.issuer.url}/authorize`);
  expect(authorize.searchParams.get('client_id')).toBe('helix-test-client');
  expect(authorize.searchParams.get('redirect_uri')).toBe('http://portal.test/api/auth/google/callback');
  expect(authorize.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);

  const atProvider = await fetch(authorize, { redirect: 'manual' });
  expect(atProvider.status).toBe(302);
  const callback = new URL(atProvider.headers.get('location')!);
  expect(callback.pathname).toBe('/api/auth/google/callback');

  const call = request(h.app).get(callback.pathname + callback.search);
  const back = await (cookie === null ? call : call.set('Cookie', cookie));
  expect(back.status).toBe(302);
  return {
    landing: new URL(back.headers.location!),
    callbackPath: callback.pathname + callback.search,
    cookie: set!.pair,
    back,
  };
}

/** The web's /auth/google page redeeming the code (a same-origin fetch: the cookie goes along). */
const validate = (type: 'login' | 'signup', code: string, cookie: string | null) => {
  const call = request(h.app)
    .post(type === 'login' ? '/api/user/validate-login' : '/api/user/validate')
    .send({ type, code });
  return cookie === null ? call : call.set('Cookie', cookie);
};

describe('Google sign-in', () => {
  it('signs up an unknown person (is-register) with a username from the e-mail', async () => {
    const local = uniqueName('ada.lovelace');
    userinfo = {
      sub: `g-${local}`,
      name: 'Ada Lovelace',
      email: `${local}@gmail.test`,
      email_verified: true,
    };
    const { landing, cookie } = await roundTrip('signup');
    expect(landing.origin + landing.pathname).toBe('http://portal.test/auth/google');
    expect(landing.searchParams.get('type')).toBe('signup');
    const code = landing.searchParams.get('code')!;

    const res = await validate('signup', code, cookie);
    expect(res.status).toBe(200);
    // The cookie is used up.
    expect(signInCookie(res)?.header).toMatch(/^helix_oauth=; .*Expires=Thu, 01 Jan 1970/);
    const answer = AuthResponse.parse(res.body);
    expect(answer.authType).toBe('is-register');
    expect(answer.user.userName).toMatch(/^adalovelace[0-9]*$/);
    expect(answer.user).toMatchObject({ name: 'Ada Lovelace', email: `${local}@gmail.test`, isOwner: true });
    const user = await h.db.user.findUniqueOrThrow({ where: { id: answer.user.id } });
    expect(user.googleId).toBe(`g-${local}`);
    expect(user.passwordHash).toBeNull();

    // The code is single use.
    const again = await validate('signup', code, cookie);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(MSG.somethingWentWrong);

    // Next time the same Google account logs in.
    const second = await roundTrip('login');
    const login = await validate('login', second.landing.searchParams.get('code')!, second.cookie);
    expect(login.body.authType).toBe('is-loggedin');
    expect(login.body.user.id).toBe(answer.user.id);
  });

  it('logs in an existing account by its verified address and links it (is-loggedin)', async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    userinfo = { sub: `g-${user.userName}`, name: 'Someone', email: user.email, email_verified: true };
    const { landing, cookie } = await roundTrip('login');
    expect([...landing.searchParams.keys()].sort()).toEqual(['code', 'type']);
    const res = await validate('login', landing.searchParams.get('code')!, cookie);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      authType: 'is-loggedin',
      tenant: tenant.domainPrefix,
      user: { id: user.id },
    });
    expect((await h.db.user.findUniqueOrThrow({ where: { id: user.id } })).googleId).toBe(
      `g-${user.userName}`,
    );
  });

  it('refuses a code redeemed in another browser (login CSRF), and uses it up', async () => {
    const tenant = await createTenant(h.db);
    const attacker = await createUser(h.db, { tenant });
    userinfo = {
      sub: `g-${attacker.userName}`,
      name: 'Mallory',
      email: attacker.email,
      email_verified: true,
    };
    // The victim's browser: no sign-in cookie, one of its own from an earlier start, or a made-up one.
    const victimsOwn = signInCookie(await request(h.app).get('/api/auth/google?type=login'))!.pair;
    const oneCharOff = (pair: string) => pair.slice(0, -1) + (pair.endsWith('A') ? 'B' : 'A');
    const victims = (attackers: string) => [null, victimsOwn, 'helix_oauth=forged', oneCharOff(attackers)];
    for (let i = 0; i < 4; i += 1) {
      // The attacker signs in in their own browser and stops at the landing page, keeping the code,
      // then gets the victim's browser to open /auth/google?code=.. (which redeems it).
      const planted = await roundTrip('login');
      const code = planted.landing.searchParams.get('code')!;
      const cookie = victims(planted.cookie)[i]!;
      const res = await validate('login', code, cookie);
      expect(res.status, String(cookie)).toBe(400);
      expect(res.body.message).toBe(MSG.somethingWentWrong);
      expect(res.body.apiToken).toBeUndefined();
      // Used up by the refused attempt: not even the right browser can redeem it now.
      expect((await validate('login', code, planted.cookie)).status).toBe(400);
    }
    expect(await h.db.session.count({ where: { userId: attacker.id } })).toBe(0);
  });

  it("refuses the provider's answer in a browser that did not start sign-in", async () => {
    userinfo = { sub: 'g-y', name: 'Y', email: 'y@gmail.test', email_verified: true };
    const other = signInCookie(await request(h.app).get('/api/auth/google?type=signup'))!.pair;
    for (const cookie of [null, other]) {
      const { landing, back } = await roundTrip('signup', { cookie });
      expect(landing.searchParams.get('error'), String(cookie)).toBe('1');
      expect(landing.searchParams.get('code')).toBeNull();
      expect(signInCookie(back)?.header).toMatch(/^helix_oauth=; /);
    }
  });

  it('does not link an account to an unverified address', async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    userinfo = { sub: 'g-attacker', name: 'Mallory', email: user.email, email_verified: false };
    const { landing, cookie } = await roundTrip('login');
    const res = await validate('login', landing.searchParams.get('code')!, cookie);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(MSG.somethingWentWrong);
  });

  it('sends the browser back with error=1 on a forged or replayed state, or a provider error', async () => {
    userinfo = { sub: 'g-x', name: 'X', email: 'x@gmail.test', email_verified: true };
    const { callbackPath, landing, cookie } = await roundTrip('signup');
    expect(landing.searchParams.get('code')).toBeTruthy();
    const replay = await request(h.app).get(callbackPath).set('Cookie', cookie);
    expect(replay.status).toBe(302);
    expect(new URL(replay.headers.location!).searchParams.get('error')).toBe('1');

    const forged = await request(h.app).get(
      '/api/auth/google/callback?code=abc&state=forgedforgedforgedforgedforged',
    );
    expect(new URL(forged.headers.location!).searchParams.get('error')).toBe('1');

    const denied = await request(h.app).get('/api/auth/google/callback?error=access_denied');
    expect(new URL(denied.headers.location!).searchParams.get('error')).toBe('1');
  });

  it('refuses a bad code and a bad type', async () => {
    const { pair } = signInCookie(await request(h.app).get('/api/auth/google?type=login'))!;
    expect((await validate('login', 'made-up', pair)).body).toMatchObject({
      statusCode: 400,
      message: MSG.somethingWentWrong,
    });
    const badType = await request(h.app).get('/api/auth/google?type=admin');
    expect(badType.status).toBe(400);
    // No return address is taken (the web keeps its own): not even a path of this site.
    for (const redirect of ['//evil.test', '/user/home']) {
      const res = await request(h.app).get(`/api/auth/google?type=login&redirect=${redirect}`);
      expect(res.status, redirect).toBe(400);
      expect(signInCookie(res)).toBeUndefined();
    }
  });

  it('sends a browser to the failure page and says so when Google is not configured', async () => {
    const app = h.appWith({ GOOGLE_CLIENT_ID: '' });
    for (const type of ['login', 'signup']) {
      const res = await request(app).get(`/api/auth/google?type=${type}`).set('Accept', 'text/html');
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(
        `${h.config.PUBLIC_URL.replace(/\/+$/, '')}/auth/google?error=1&type=${type}`,
      );
    }
    const json = await request(app).get('/api/auth/google?type=login').set('Accept', 'application/json');
    expect(json.status).toBe(404);
    expect(json.body.message).toBe(MSG.googleDisabled);
    expect((await request(app).get('/api/auth/providers')).body).toEqual({ google: false });
    expect((await request(h.app).get('/api/auth/providers')).body).toEqual({ google: true });
  });
});
