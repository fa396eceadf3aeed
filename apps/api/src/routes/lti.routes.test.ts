import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import {
  LTI_CLAIM,
  LtiClassStats,
  LtiPlatformView,
  LtiSettings,
  LtiToolView,
} from '@helix/shared/schemas/lti';
import { LessonForPupil, LessonForTeacher } from '@helix/shared/lessons';
import { escapeHtml } from '@helix/server/escape-html';
import { lessonStore } from '@helix/server/lessons/lesson-live';
import { platformKey, TestLtiPlatform, type PendingLaunch } from '@helix/server/testing/lti-platform';
import {
  bearer,
  createModel,
  createModelHarness,
  customer,
  member,
  type Caller,
  type ModelHarness,
} from '../../test/models.ts';

/**
 * LTI 1.3 (docs/lti.md) against a platform the test runs (packages/server/src/testing/lti-platform.ts):
 * registration by the owner, OIDC login initiation, the launch into the viewer with its view counted
 * for the course, deep linking, and every failure as a 4xx page.
 */

const TOOL = 'http://portal.test';
const VIEWER = 'http://viewer.test';

let h: ModelHarness;
let school: Caller;
let platform: TestLtiPlatform;
let model: Awaited<ReturnType<typeof createModel>>;

const get = (caller: Caller, path: string) =>
  request(h.app).get(`${caller.base}${path}`).set(bearer(caller.token));
const post = (caller: Caller, path: string, body: object) =>
  request(h.app).post(`${caller.base}${path}`).set(bearer(caller.token)).send(body);
const launchPost = (fields: Record<string, string>) =>
  request(h.app).post('/api/lti/launch').type('form').send(fields);

/** The platform's login initiation, through the tool, up to the platform's authorization answer. */
async function login(p: TestLtiPlatform, launch: PendingLaunch) {
  const hint = p.prepare(launch);
  const res = await request(h.app).get('/api/lti/login').query(p.loginParams(hint));
  // A school that does not pay gets the page with the button (login-destination.ts): pressed here.
  const auth = res.status === 200 ? continuedTo(res.text) : new URL(res.headers.location as string);
  expect([200, 302], res.text).toContain(res.status);
  const { idToken, state, redirectUri } = await p.authorize(auth.searchParams);
  return { idToken, state, redirectUri, nonce: auth.searchParams.get('nonce')!, hint, auth };
}

/** Where the login page's button goes: its form's action with its hidden fields (a GET). */
function continuedTo(html: string): URL {
  const action = /<form method="get" action="([^"]+)"/.exec(html)?.[1];
  expect(action, html).toBeDefined();
  const url = new URL(unescapeHtml(action!));
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    url.searchParams.set(unescapeHtml(name!), unescapeHtml(value!));
  return url;
}
const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** A failure page: HTML (never JSON) with the message and the code. */
function expectPage(res: request.Response, status: number, message: string, code?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.text).toContain(MSG.ltiErrorTitle);
  expect(res.text).toContain(escapeHtml(message));
  if (code) expect(res.text).toContain(code);
  expect(res.headers['x-frame-options']).toBeUndefined();
  expect(res.headers['content-security-policy']).toContain('frame-ancestors *');
}

beforeAll(async () => {
  h = await createModelHarness({ LTI_JWKS_COOLDOWN_SECONDS: '0', PUBLIC_URL: TOOL, VIEWER_URL: VIEWER });
  school = await customer(h, { name: 'Hillside School' });
  model = await createModel(h, { name: 'Human heart' });
  platform = await TestLtiPlatform.start({ toolUrl: TOOL });
  const saved = await post(school, '/lti/platform/save', platform.registration());
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
});
afterAll(async () => {
  await platform?.close();
  await h?.close();
});

describe('registration (owner settings)', () => {
  it("shows the tool's addresses and a generated RS256 key published in the school's JWKS", async () => {
    const res = await get(school, '/lti');
    expect(res.status).toBe(200);
    const settings = LtiSettings.parse(res.body);
    expect(settings.tool).toMatchObject({
      loginUrl: `${TOOL}/api/lti/login`,
      launchUrl: `${TOOL}/api/lti/launch`,
      deepLinkUrl: `${TOOL}/api/lti/launch`,
      jwksUrl: `${TOOL}/api/lti/jwks/${school.tenant.domainPrefix}`,
      domain: 'portal.test',
    });
    expect(settings.tool.keys).toHaveLength(1);
    expect(settings.platforms.map((p) => p.issuer)).toEqual([platform.issuer]);
    const jwks = await request(h.app).get(`/api/lti/jwks/${school.tenant.domainPrefix}`);
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys).toHaveLength(1);
    expect(jwks.body.keys[0]).toMatchObject({
      kty: 'RSA',
      alg: 'RS256',
      use: 'sig',
      kid: settings.tool.keys[0]!.kid,
    });
    expect(jwks.body.keys[0].d).toBeUndefined(); // never the private part
    const stored = await h.db.ltiToolKey.findFirstOrThrow({ where: { tenantId: school.tenant.id } });
    expect(stored.privateKeyEnc).not.toContain('PRIVATE KEY');
    expect((await request(h.app).get('/api/lti/jwks/no-such-school')).status).toBe(404);
  });

  it("is the owner's alone: another user of the school and other schools are refused", async () => {
    const teacher = await member(h, school.tenant, ['Admin']);
    expect((await get(teacher, '/lti')).status).toBe(403);
    expect((await post(teacher, '/lti/platform/save', platform.registration('Mine'))).status).toBe(403);
    expect((await post(teacher, '/lti/key/rotate', {})).status).toBe(403);
    const other = await customer(h);
    const ours = (await get(school, '/lti')).body as LtiSettings;
    const id = ours.platforms[0]!.id;
    expect(
      (await post(other, '/lti/platform/save', { ...platform.registration(), id, name: 'Stolen' })).status,
    ).toBe(404);
    expect((await post(other, '/lti/platform/delete', { id })).status).toBe(404);
    // The same issuer and client id cannot name two schools.
    const taken = await post(other, '/lti/platform/save', platform.registration());
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'LTI_PLATFORM_TAKEN', message: MSG.ltiPlatformTaken });
  });

  it('validates with the shared schema, updates, deletes and rotates the key (audited)', async () => {
    const bad = await post(school, '/lti/platform/save', {
      ...platform.registration(),
      keysetUrl: 'not a url',
      deploymentIds: [],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toMatchObject({
      keysetUrl: MSG.ltiUrlInvalid,
      deploymentIds: MSG.ltiDeploymentRequired,
    });
    const created = LtiPlatformView.parse(
      (
        await post(school, '/lti/platform/save', {
          ...platform.registration('Canvas'),
          clientId: 'canvas-1',
          deploymentIds: ['a', 'a', 'b'],
        })
      ).body,
    );
    expect(created.deploymentIds).toEqual(['a', 'b']);
    const changed = await post(school, '/lti/platform/save', {
      ...platform.registration('Canvas 2'),
      clientId: 'canvas-1',
      id: created.id,
    });
    expect(changed.body.name).toBe('Canvas 2');
    expect((await post(school, '/lti/platform/delete', { id: created.id })).status).toBe(204);

    const before = LtiSettings.parse((await get(school, '/lti')).body).tool.keys;
    const rotated = LtiToolView.parse((await post(school, '/lti/key/rotate', {})).body);
    expect(rotated.keys).toHaveLength(before.length + 1);
    expect(rotated.keys.filter((k) => k.retiredAt === null)).toHaveLength(1);
    expect(rotated.keys[0]!.kid).not.toBe(before[0]!.kid);
    const jwks = await request(h.app).get(`/api/lti/jwks/${school.tenant.domainPrefix}`);
    expect(jwks.body.keys.map((k: { kid: string }) => k.kid).sort()).toEqual(
      rotated.keys.map((k) => k.kid).sort(),
    );
    const actions = (
      await h.db.auditEvent.findMany({ where: { tenantId: school.tenant.id }, select: { action: true } })
    ).map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'lti.platform.create',
        'lti.platform.update',
        'lti.platform.delete',
        'lti.key.rotate',
      ]),
    );
  });
});

describe('OIDC login initiation', () => {
  it('redirects to the platform with state, nonce and the LTI parameters (GET and POST)', async () => {
    const hint = platform.prepare({ kind: 'resource' });
    const res = await request(h.app).post('/api/lti/login').type('form').send(platform.loginParams(hint));
    expect(res.status).toBe(302);
    const auth = new URL(res.headers.location as string);
    expect(`${auth.origin}${auth.pathname}`).toBe(platform.authLoginUrl);
    expect(Object.fromEntries(auth.searchParams)).toMatchObject({
      scope: 'openid',
      response_type: 'id_token',
      response_mode: 'form_post',
      prompt: 'none',
      client_id: platform.clientId,
      redirect_uri: `${TOOL}/api/lti/launch`,
      login_hint: `user-${hint}`,
      lti_message_hint: hint,
    });
    expect(auth.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(auth.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    // Without client_id: the issuer's only registration.
    const { client_id: _c, ...noClient } = platform.loginParams(hint);
    expect((await request(h.app).get('/api/lti/login').query(noClient)).status).toBe(302);
  });

  it('refuses an unknown issuer, an unknown deployment and an incomplete request with a page', async () => {
    const params = platform.loginParams('x');
    expectPage(
      await request(h.app)
        .get('/api/lti/login')
        .query({ ...params, iss: 'https://elsewhere.test' }),
      400,
      MSG.ltiUnknownPlatform,
      'LTI_UNKNOWN_PLATFORM',
    );
    expectPage(
      await request(h.app)
        .get('/api/lti/login')
        .query({ ...params, client_id: 'other' }),
      400,
      MSG.ltiUnknownPlatform,
    );
    expectPage(
      await request(h.app)
        .get('/api/lti/login')
        .query({ ...params, lti_deployment_id: 'dep-unknown' }),
      403,
      MSG.ltiUnknownDeployment,
      'LTI_UNKNOWN_DEPLOYMENT',
    );
    const { login_hint: _l, ...incomplete } = params;
    expectPage(await request(h.app).get('/api/lti/login').query(incomplete), 400, MSG.ltiLoginInvalid);
  });
});

describe('login initiation is no open redirect', () => {
  /** A platform registered by `school`: the login initiation's answer for it. */
  async function loginAt(school: Caller, reg: { issuer: string; authLoginUrl: string }) {
    const clientId = `client-${Math.random().toString(36).slice(2)}`;
    const saved = await post(school, '/lti/platform/save', {
      name: 'Registered',
      clientId,
      deploymentIds: ['dep-1'],
      tokenUrl: `${reg.issuer}/token`,
      keysetUrl: `${reg.issuer}/jwks`,
      ...reg,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    return request(h.app)
      .get('/api/lti/login')
      .query({
        iss: reg.issuer,
        client_id: clientId,
        login_hint: 'someone',
        target_link_uri: `${TOOL}/api/lti/launch`,
      });
  }

  it('never sends a free or trial school’s unknown login URL at once: a page names the host', async () => {
    for (const school of [await customer(h, { plan: null }), await customer(h, { status: 'trialing' })]) {
      const issuer = `https://evil-${school.tenant.id}.example`;
      const res = await loginAt(school, { issuer, authLoginUrl: `${issuer}/phish` });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.location).toBeUndefined();
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const host = new URL(issuer).host;
      expect(res.text).toContain(escapeHtml(MSG.ltiLoginContinue(host)));
      expect(res.text).toContain(`action="${issuer}/phish"`);
      // No script forwards it: the visitor decides, with the host in front of them.
      expect(res.text).not.toMatch(/<script[^>]*>[^<]*submit/);
      expect(res.headers['content-security-policy']).toContain(`form-action 'self' ${issuer}`);
    }
  });

  it('still redirects at once to a hosted platform’s sign-in host (Canvas: issuer and login host differ)', async () => {
    const free = await customer(h, { plan: null });
    const res = await loginAt(free, {
      issuer: 'https://canvas.instructure.com',
      authLoginUrl: 'https://sso.canvaslms.com/api/lti/authorize_redirect',
    });
    expect(res.status, res.text).toBe(302);
    expect(res.headers.location).toMatch(/^https:\/\/sso\.canvaslms\.com\/api\/lti\/authorize_redirect\?/);
  });

  it('redirects at once for a paying school’s own platform (its self-hosted Moodle)', async () => {
    const paying = await customer(h);
    const issuer = `https://moodle-${paying.tenant.id}.school.example`;
    const res = await loginAt(paying, { issuer, authLoginUrl: `${issuer}/mod/lti/auth.php` });
    expect(res.status, res.text).toBe(302);
    expect(res.headers.location).toMatch(new RegExp(`^${issuer}/mod/lti/auth\\.php\\?`));
  });
});

describe('resource link launch', () => {
  it("opens the viewer for the pupil, counted once per pupil as the school's view of the course", async () => {
    const course = { id: 'course-7b', title: 'Biology 7B', label: 'BIO7B' };
    const flow = await login(platform, {
      kind: 'resource',
      custom: { helix_model: model.urlModelName },
      context: course,
      sub: 'pupil-a',
    });
    expect(flow.redirectUri).toBe(`${TOOL}/api/lti/launch`);
    const res = await launchPost({ id_token: flow.idToken, state: flow.state });
    expect(res.status, res.text).toBe(303);
    const viewer = new URL(res.headers.location as string);
    expect(viewer.origin).toBe(VIEWER);
    const query = Object.fromEntries(viewer.searchParams);
    expect(query).toMatchObject({ model: model.urlModelName, currentmode: 'embedding' });
    expect(query.subscription).toMatch(/^lti1\./);

    const load = () => request(h.app).get('/api/viewer/model').query(query).set('Origin', VIEWER);
    const first = await load();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ name: 'Human heart', record: false });
    expect((await load()).status).toBe(200); // a reload in the view window: still one view

    // Another pupil of the course, then the same pupil in another course.
    const second = await login(platform, {
      kind: 'resource',
      custom: { helix_model: model.urlModelName },
      context: course,
      sub: 'pupil-b',
    });
    const other = new URL(
      (await launchPost({ id_token: second.idToken, state: second.state })).headers.location as string,
    );
    expect(
      (
        await request(h.app)
          .get('/api/viewer/model')
          .query(Object.fromEntries(other.searchParams))
          .set('Origin', VIEWER)
      ).status,
    ).toBe(200);
    const third = await login(platform, {
      kind: 'resource',
      custom: { helix_model: model.urlModelName },
      context: { id: 'course-8a', title: 'Biology 8A' },
      sub: 'pupil-a',
    });
    const eight = new URL(
      (await launchPost({ id_token: third.idToken, state: third.state })).headers.location as string,
    );
    expect(
      (
        await request(h.app)
          .get('/api/viewer/model')
          .query(Object.fromEntries(eight.searchParams))
          .set('Origin', VIEWER)
      ).status,
    ).toBe(200);

    // Counted before the flush (Redis) and after it (PostgreSQL), per class.
    const stats = async () => LtiClassStats.parse((await get(school, '/stats/classes')).body);
    const expected = [
      { title: 'Biology 7B', label: 'BIO7B', platformName: 'Test Moodle', views: 2, models: 1 },
      { title: 'Biology 8A', label: '', platformName: 'Test Moodle', views: 1, models: 1 },
    ];
    expect((await stats()).rows).toMatchObject(expected);
    await h.flush();
    const flushed = await stats();
    expect(flushed.rows).toMatchObject(expected);
    expect(flushed.totalViews).toBe(3);
    const rows = await h.db.modelViewDaily.findMany({ where: { tenantId: school.tenant.id, source: 'lti' } });
    expect(rows.every((r) => r.ltiContextId !== null && r.userId === null)).toBe(true);
    expect(rows.reduce((n, r) => n + r.count, 0)).toBe(3);

    // Views per class are the school's: a user without the users' statistics and another school see nothing.
    const plainUser = await member(h, school.tenant, ['User']);
    expect((await get(plainUser, '/stats/classes')).status).toBe(403);
    const teacher = await member(h, school.tenant, ['Admin']);
    expect(LtiClassStats.parse((await get(teacher, '/stats/classes')).body).totalViews).toBe(3);
    const other2 = await customer(h);
    expect(LtiClassStats.parse((await get(other2, '/stats/classes')).body).rows).toEqual([]);
  });

  it('refuses a replay: the same launch again, and its id_token with a new state (nonce)', async () => {
    const flow = await login(platform, { kind: 'resource', custom: { helix_model: model.urlModelName } });
    expect((await launchPost({ id_token: flow.idToken, state: flow.state })).status).toBe(303);
    expectPage(
      await launchPost({ id_token: flow.idToken, state: flow.state }),
      400,
      MSG.ltiStateInvalid,
      'LTI_STATE_INVALID',
    );
    const again = await login(platform, { kind: 'resource', custom: { helix_model: model.urlModelName } });
    expectPage(
      await launchPost({ id_token: flow.idToken, state: again.state }),
      401,
      MSG.ltiNonceInvalid,
      'LTI_NONCE_INVALID',
    );
  });

  it('refuses a bad signature, a wrong audience, an expired token, an unknown deployment and a wrong state', async () => {
    const custom = { helix_model: model.urlModelName };
    const claimsFor = (nonce: string, more: object = {}) => ({
      ...platform.claims({ kind: 'resource', custom }, nonce),
      ...more,
    });

    // Signed by another key under the platform's kid.
    let flow = await login(platform, { kind: 'resource', custom });
    const forged = await platform.idToken(claimsFor(flow.nonce), {
      key: { ...(await platformKey()), kid: platform.key.kid },
    });
    expectPage(
      await launchPost({ id_token: forged, state: flow.state }),
      401,
      MSG.ltiTokenInvalid,
      'LTI_TOKEN_INVALID',
    );
    // A tampered payload.
    flow = await login(platform, { kind: 'resource', custom });
    const [head, , sig] = flow.idToken.split('.');
    const tampered = Buffer.from(
      JSON.stringify({
        ...claimsFor(flow.nonce),
        iss: platform.issuer,
        aud: platform.clientId,
        sub: 'admin',
      }),
    ).toString('base64url');
    expectPage(
      await launchPost({ id_token: `${head}.${tampered}.${sig}`, state: flow.state }),
      401,
      MSG.ltiTokenInvalid,
    );

    flow = await login(platform, { kind: 'resource', custom });
    const wrongAud = await platform.idToken(claimsFor(flow.nonce), { audience: 'someone-else' });
    expectPage(
      await launchPost({ id_token: wrongAud, state: flow.state }),
      401,
      MSG.ltiWrongAudience,
      'LTI_WRONG_AUDIENCE',
    );
    flow = await login(platform, { kind: 'resource', custom });
    const azp = await platform.idToken(claimsFor(flow.nonce, { azp: 'someone-else' }), {
      audience: [platform.clientId, 'someone-else'],
    });
    expectPage(await launchPost({ id_token: azp, state: flow.state }), 401, MSG.ltiWrongAudience);

    flow = await login(platform, { kind: 'resource', custom });
    const past = Math.floor(Date.now() / 1000) - 3600;
    const expired = await platform.idToken(claimsFor(flow.nonce), { iat: past, expiresIn: past + 60 });
    expectPage(
      await launchPost({ id_token: expired, state: flow.state }),
      401,
      MSG.ltiTokenExpired,
      'LTI_TOKEN_EXPIRED',
    );

    flow = await login(platform, { kind: 'resource', custom });
    const otherDeployment = await platform.idToken(
      claimsFor(flow.nonce, { [LTI_CLAIM.deploymentId]: 'dep-other' }),
    );
    expectPage(
      await launchPost({ id_token: otherDeployment, state: flow.state }),
      403,
      MSG.ltiUnknownDeployment,
    );

    flow = await login(platform, { kind: 'resource', custom });
    const otherIssuer = await platform.idToken(claimsFor(flow.nonce), { issuer: 'https://elsewhere.test' });
    expectPage(await launchPost({ id_token: otherIssuer, state: flow.state }), 401, MSG.ltiTokenInvalid);

    flow = await login(platform, { kind: 'resource', custom });
    expectPage(
      await launchPost({ id_token: flow.idToken, state: 'never-issued-state' }),
      400,
      MSG.ltiStateInvalid,
    );
    expectPage(await launchPost({ id_token: flow.idToken }), 400, MSG.ltiLaunchInvalid);
    expectPage(await launchPost({ id_token: 'not.a.jwt', state: flow.state }), 401, MSG.ltiTokenInvalid);

    flow = await login(platform, { kind: 'resource', custom });
    const unsupported = await platform.idToken(
      claimsFor(flow.nonce, { [LTI_CLAIM.messageType]: 'LtiSubmissionReviewRequest' }),
    );
    expectPage(
      await launchPost({ id_token: unsupported, state: flow.state }),
      400,
      MSG.ltiMessageUnsupported,
    );
  });

  it("fetches the platform's keys again for an unknown kid, and says so when they cannot be read", async () => {
    const fetches = platform.jwksFetches;
    await platform.rotateKey();
    const flow = await login(platform, { kind: 'resource', custom: { helix_model: model.urlModelName } });
    expect((await launchPost({ id_token: flow.idToken, state: flow.state })).status).toBe(303);
    expect(platform.jwksFetches).toBeGreaterThan(fetches);

    await platform.rotateKey();
    platform.jwksUp = false;
    try {
      const down = await login(platform, { kind: 'resource', custom: { helix_model: model.urlModelName } });
      expectPage(
        await launchPost({ id_token: down.idToken, state: down.state }),
        400,
        MSG.ltiKeysUnavailable,
        'LTI_KEYS_UNAVAILABLE',
      );
    } finally {
      platform.jwksUp = true;
    }
  });

  it('says which model is missing, gone or not allowed by the plan', async () => {
    let flow = await login(platform, { kind: 'resource' });
    expectPage(
      await launchPost({ id_token: flow.idToken, state: flow.state }),
      400,
      MSG.ltiNoModel,
      'LTI_NO_MODEL',
    );
    const hidden = await createModel(h, { name: 'Private brain', isPublic: false });
    flow = await login(platform, { kind: 'resource', custom: { helix_model: hidden.urlModelName } });
    expectPage(await launchPost({ id_token: flow.idToken, state: flow.state }), 404, MSG.ltiModelGone);

    const lapsed = await customer(h, { status: 'deactivated' });
    const p2 = await TestLtiPlatform.start({ toolUrl: TOOL });
    try {
      expect((await post(lapsed, '/lti/platform/save', p2.registration())).status).toBe(200);
      flow = await login(p2, { kind: 'resource', custom: { helix_model: model.urlModelName } });
      expectPage(await launchPost({ id_token: flow.idToken, state: flow.state }), 403, MSG.ltiPlanInactive);
    } finally {
      await p2.close();
    }
  });
});

describe('deep linking', () => {
  it('shows the catalogue in the LMS frame and posts back a response signed with the tool key', async () => {
    const other = await createModel(h, { name: 'Lungs' });
    const flow = await login(platform, { kind: 'deep-link', data: 'opaque-42' });
    const picker = await launchPost({ id_token: flow.idToken, state: flow.state });
    expect(picker.status, picker.text).toBe(200);
    expect(picker.headers['content-type']).toMatch(/^text\/html/);
    expect(picker.headers['x-frame-options']).toBeUndefined();
    expect(picker.headers['content-security-policy']).toContain(`frame-ancestors ${platform.issuer}`);
    expect(picker.text).toContain('Human heart');
    expect(picker.text).toContain('Lungs');
    expect(picker.text).toContain('type="checkbox"');
    const session = /name="session" value="([^"]+)"/.exec(picker.text)![1]!;

    // The search keeps what was ticked: the heart, hidden by the search, stays chosen as a hidden field.
    const searched = await request(h.app)
      .get('/api/lti/deep-link')
      .query(`session=${session}&q=lung&model=${model.id}`);
    expect(searched.text).toContain('Lungs');
    expect(searched.text).not.toContain('Human heart');
    expect(searched.text).toContain(`<input type="hidden" name="model" value="${model.id}">`);
    const again = await request(h.app)
      .get('/api/lti/deep-link')
      .query(`session=${session}&model=${model.id}&model=${other.id}`);
    expect(again.text).toContain(`value="${model.id}" checked>`);
    expect(again.text).toContain(`value="${other.id}" checked>`);
    expect(again.text).not.toContain('type="hidden" name="model"');

    const none = await request(h.app).post('/api/lti/deep-link').type('form').send({ session });
    expect(none.status).toBe(422);
    expect(none.text).toContain(escapeHtml(MSG.ltiPickNothing));

    const chosen = await request(h.app)
      .post('/api/lti/deep-link')
      .type('form')
      .send(`session=${session}&model=${model.id}&model=${other.id}`);
    expect(chosen.status, chosen.text).toBe(200);
    expect(chosen.headers['content-security-policy']).toContain(`form-action 'self' ${platform.issuer}`);
    expect(chosen.text).toContain(`action="${platform.returnUrl}"`);
    const jwt = /name="JWT" value="([^"]+)"/.exec(chosen.text)![1]!;

    // The platform checks it with the school's published keys.
    const jwks = (await request(h.app).get(`/api/lti/jwks/${school.tenant.domainPrefix}`)).body;
    const claims = await platform.verifyDeepLinkResponse(jwt, jwks);
    expect(claims[LTI_CLAIM.messageType]).toBe('LtiDeepLinkingResponse');
    expect(claims[LTI_CLAIM.deploymentId]).toBe(platform.deploymentId);
    expect(claims[LTI_CLAIM.data]).toBe('opaque-42');
    expect(claims[LTI_CLAIM.contentItems]).toEqual([
      expect.objectContaining({
        type: 'ltiResourceLink',
        title: 'Human heart',
        url: `${TOOL}/api/lti/launch`,
        custom: { helix_model: model.urlModelName },
      }),
      expect.objectContaining({ title: 'Lungs', custom: { helix_model: other.urlModelName } }),
    ]);
    // Not with another key set (a forged answer would not pass either).
    await expect(platform.verifyDeepLinkResponse(jwt, platform.jwks())).rejects.toThrow();

    // The choice is made once.
    const twice = await request(h.app)
      .post('/api/lti/deep-link')
      .type('form')
      .send({ session, model: String(model.id) });
    expect(twice.status).toBe(400);
    expect(twice.text).toContain(escapeHtml(MSG.ltiDeepLinkExpired));
  });

  it('offers one model when the platform accepts one, and cancels with an empty answer', async () => {
    const flow = await login(platform, { kind: 'deep-link', acceptMultiple: false });
    const picker = await launchPost({ id_token: flow.idToken, state: flow.state });
    expect(picker.text).toContain('type="radio"');
    const session = /name="session" value="([^"]+)"/.exec(picker.text)![1]!;
    const cancelled = await request(h.app)
      .post('/api/lti/deep-link')
      .type('form')
      .send({ session, cancel: '1' });
    expect(cancelled.status).toBe(200);
    const jwt = /name="JWT" value="([^"]+)"/.exec(cancelled.text)![1]!;
    const jwks = (await request(h.app).get(`/api/lti/jwks/${school.tenant.domainPrefix}`)).body;
    expect((await platform.verifyDeepLinkResponse(jwt, jwks))[LTI_CLAIM.contentItems]).toEqual([]);
    expect(
      (
        await request(h.app)
          .get('/api/lti/deep-link')
          .query({ session: 'x'.repeat(32) })
      ).status,
    ).toBe(400);
  });
});

describe('live lesson from a course', () => {
  const INSTRUCTOR = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor';
  const course = { id: 'course-live', title: 'Biology 9C', label: 'BIO9C' };
  const answer = async (extra: Partial<Extract<PendingLaunch, { kind: 'resource' }>>) => {
    const flow = await login(platform, {
      kind: 'resource',
      custom: { helix_model: model.urlModelName },
      context: course,
      ...extra,
    });
    return launchPost({ id_token: flow.idToken, state: flow.state });
  };
  const launch = async (extra: Partial<Extract<PendingLaunch, { kind: 'resource' }>>) => {
    const res = await answer(extra);
    expect(res.status, res.text).toBe(303);
    return new URL(res.headers.location as string);
  };
  /** An instructor's launch: the teaching page's viewer frame and its start link. */
  const teach = async (extra: Partial<Extract<PendingLaunch, { kind: 'resource' }>>) => {
    const res = await answer({ roles: [INSTRUCTOR], ...extra });
    expect(res.status, res.text).toBe(200);
    const attr = (re: RegExp) => new URL(re.exec(res.text)![1]!.replaceAll('&amp;', '&'));
    return {
      res,
      viewer: attr(/<iframe[^>]* src="([^"]+)"/),
      start: attr(/<a class="button" href="([^"]+)"/),
    };
  };
  const joinByLti = (ticket: string) => request(h.app).post('/api/lessons/join/lti').send({ ticket });

  it('an instructor’s launch ticket starts the course’s lesson; a learner’s launch lands in it, one seat each', async () => {
    const plan = await h.db.tenantSubscription.findUniqueOrThrow({ where: { tenantId: school.tenant.id } });
    await h.db.plan.update({ where: { id: plan.planId! }, data: { liveLessons: true } });

    // Without live lessons in the plan, the instructor's launch opens the viewer like a learner's.
    await h.db.plan.update({ where: { id: plan.planId! }, data: { liveLessons: false } });
    expect((await launch({ sub: 'teacher-1', roles: [INSTRUCTOR] })).origin).toBe(VIEWER);
    await h.db.plan.update({ where: { id: plan.planId! }, data: { liveLessons: true } });

    // With them, the teaching page: the viewer in a frame, and a start link that opens a tab of its own.
    const taught = await teach({ sub: 'teacher-1', name: 'Ms Rivera' });
    expect(taught.res.headers['content-type']).toMatch(/^text\/html/);
    expect(taught.res.headers['x-frame-options']).toBeUndefined();
    expect(taught.res.headers['content-security-policy']).toContain(`frame-src ${VIEWER}`);
    expect(taught.res.text).toContain('<strong>Biology 9C</strong>');
    expect(taught.res.text).toContain(MSG.ltiTeachStart);
    expect(taught.res.text).toMatch(/<a class="button" href="[^"]+" target="_blank" rel="noopener"/);
    expect(taught.viewer.origin).toBe(VIEWER);
    const instructorTicket = taught.viewer.searchParams.get('subscription')!;
    expect(`${taught.start.origin}${taught.start.pathname}`).toBe(`${TOOL}/user/lessons/start`);
    expect(taught.start.searchParams.get('lti')).toBe(instructorTicket);
    // A learner's ticket, another model's, or nonsense cannot make a lesson the course's.
    const learnerTicket = (await launch({ sub: 'pupil-z' })).searchParams.get('subscription')!;
    const otherModel = await createModel(h, { name: 'Lung' });
    for (const [modelId, ltiTicket] of [
      [model.id, learnerTicket],
      [otherModel.id, instructorTicket],
      [model.id, 'lti1.not-a-ticket'],
    ] as const) {
      const refused = await post(school, '/lessons', { modelId, ltiTicket });
      expect(refused.status, JSON.stringify(refused.body)).toBe(403);
      expect(refused.body.message).toBe(MSG.lessonLtiTicketInvalid);
    }

    // Neither a model nor a ticket: nothing to start.
    const nothing = await post(school, '/lessons', {});
    expect(nothing.status, JSON.stringify(nothing.body)).toBe(400);

    // The start link's ticket alone names the model (what the start page sends).
    const started = await post(school, '/lessons', { ltiTicket: instructorTicket });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    expect(LessonForTeacher.parse(started.body).lesson.modelId).toBe(model.id);
    const lesson = LessonForTeacher.parse(started.body).lesson;
    const row = await h.db.lesson.findUniqueOrThrow({
      where: { id: lesson.id },
      include: { ltiContext: true },
    });
    expect(row.ltiContext).toMatchObject({ contextId: 'course-live', title: 'Biology 9C' });
    // Started again with the same ticket: the same lesson.
    expect(
      (await post(school, '/lessons', { modelId: model.id, ltiTicket: instructorTicket })).body.lesson.id,
    ).toBe(lesson.id);

    // A learner of the course lands on the lesson's join page with their ticket after #lti=.
    const landed = await launch({ sub: 'pupil-ada', name: 'Ada <Lovelace>' });
    expect(`${landed.origin}${landed.pathname}`).toBe(lesson.joinUrl);
    const ticket = new URLSearchParams(landed.hash.slice(1)).get('lti')!;
    expect(landed.search).toBe('');
    const joined = await joinByLti(ticket);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    const seat = LessonForPupil.parse(joined.body);
    expect(seat).toMatchObject({ lessonId: lesson.id, name: 'Ada Lovelace' });
    // Launching again (a reload in the LMS) takes the same seat; another learner takes their own.
    const again = await launch({ sub: 'pupil-ada', name: 'Ada <Lovelace>' });
    const reseated = LessonForPupil.parse(
      (await joinByLti(new URLSearchParams(again.hash.slice(1)).get('lti')!)).body,
    );
    expect(reseated.pupilId).toBe(seat.pupilId);
    const ben = await launch({ sub: 'pupil-ben', name: null });
    const benSeat = LessonForPupil.parse(
      (await joinByLti(new URLSearchParams(ben.hash.slice(1)).get('lti')!)).body,
    );
    expect(benSeat.name).toBe(MSG.lessonLtiPupil);
    const roster = await lessonStore(h.deps).roster(lesson.id);
    expect(roster.map((p) => p.name).sort()).toEqual(['Ada Lovelace', MSG.lessonLtiPupil].sort());

    // The instructor gets the teaching page again (its start reopens the lesson); a learner of another
    // course still opens the viewer.
    const teachingAgain = await teach({ sub: 'teacher-1' });
    const reopened = await post(school, '/lessons', {
      ltiTicket: teachingAgain.start.searchParams.get('lti')!,
    });
    expect(reopened.body.lesson.id).toBe(lesson.id);
    expect(
      (await launch({ sub: 'pupil-ada', context: { id: 'course-other', title: 'Chemistry' } })).origin,
    ).toBe(VIEWER);
    // Nonsense is not a ticket: 404, counted like a wrong code.
    expect((await joinByLti('lti1.forged')).status).toBe(404);

    // Once the lesson ends, the course's launches open the viewer again and the ticket joins nothing.
    expect((await post(school, `/lessons/${lesson.id}/end`, {})).status).toBe(200);
    expect((await launch({ sub: 'pupil-ada' })).origin).toBe(VIEWER);
    expect((await joinByLti(ticket)).status).toBe(404);
  });
});
