import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS, MSG } from '@helix/shared';
import { createHarness, type Harness } from '../../test/harness.ts';
import {
  CUSTOMER_PLAN_PERMISSIONS,
  createPlan,
  createTenant,
  createUser,
  seedRoles,
  uniqueName,
} from '@helix/server/testing/factories';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { IDEMPOTENCY_HEADER } from '@helix/shared/schemas/outbox';
import { bearer, customer, platformAdmin, type Caller } from '../../test/models.ts';
import { openApiDocument } from '../openapi/document.ts';

let h: Harness;
let token: string;
let tenantPrefix: string;

beforeAll(async () => {
  h = await createHarness();
  await seedRoles(h.db);
  const tenant = await createTenant(h.db);
  const user = await createUser(h.db, { tenant });
  tenantPrefix = tenant.domainPrefix;
  token = (
    await request(h.app)
      .post('/api/user/login')
      .send({ email: user.email, password: 'correct horse battery' })
  ).body.apiToken;
});
afterAll(async () => {
  await h?.close();
});

/** Every JSON endpoint and a valid-looking body for it. */
const ENDPOINTS: [string, () => Record<string, unknown>][] = [
  ['/api/user/login', () => ({ email: 'someone@example.test', password: 'password1' })],
  [
    '/api/user/register',
    () => {
      const n = uniqueName('fuzz');
      return {
        name: 'Fuzz',
        user_name: n,
        email: `${n}@example.test`,
        password: 'password1',
        emailstatus: false,
      };
    },
  ],
  [
    '/api/user/join',
    () => ({
      name: 'F',
      user_name: uniqueName('j'),
      email: 'j@example.test',
      password: 'password1',
      emailstatus: false,
      token: 'x',
    }),
  ],
  ['/api/user/invitation/accept', () => ({ token: 'x', name: 'F', password: 'password1' })],
  ['/api/user/invitation/renewal-request', () => ({ token: 'x' })],
  ['/api/validate-user', () => ({ email: 'v@example.test', user_name: 'valid' })],
  ['/api/user/send_password_reset_token', () => ({ email: 'r@example.test', brand: 'Acme' })],
  ['/api/user/reset_password', () => ({ token: 'sometoken', password: 'password1' })],
  ['/api/user/validate', () => ({ type: 'signup', code: 'abc' })],
  ['/api/user/validate-login', () => ({ type: 'login', code: 'abc' })],
  ['/api/tenant/custom-branding-detail', () => ({ domain: 'example.test', brandName: 'Acme' })],
  ['/api/logs', () => ({ message: 'm', error: 'e', level: 'error' })],
];

const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '\'; DROP TABLE "User"; --',
  "' OR '1'='1",
  'Robert\'); DELETE FROM "Session"; --',
  '{{7*7}}${7*7}',
  '../../etc/passwd',
  'a\u0000b',
  'line\nbreak\r\ttab',
  '\u202Eevil',
  '\ud800',
  '😀 ünïcödé 漢字',
  '%00%27',
];

const WRONG_TYPES = [123, true, null, [], {}, ['a'], { $ne: null }];

const post = (path: string, body: unknown) =>
  request(h.app)
    .post(path)
    .set('Authorization', `Bearer ${token}`)
    .send(body as object);

function expectClean4xx(res: request.Response) {
  expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.headers['content-type']).toMatch(/application\/json/);
  expect(res.body).toMatchObject({
    statusCode: res.status,
    error: expect.any(String),
    message: expect.any(String),
  });
}

describe('bad input never gives a 500', () => {
  it.each(ENDPOINTS)('%s: malformed JSON is a 400', async (path) => {
    const res = await request(h.app)
      .post(path)
      .set('Content-Type', 'application/json')
      .send('{"email": "a@b.c",');
    expectClean4xx(res);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(MSG.invalidJson);
  });

  it.each(ENDPOINTS)('%s: a body over 100 kB is a 413', async (path, valid) => {
    const res = await post(path, { ...valid(), padding: 'x'.repeat(110 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      statusCode: 413,
      error: 'Payload Too Large',
      code: 'BODY_TOO_LARGE',
      message: MSG.bodyTooLarge,
    });
  });

  it.each(ENDPOINTS)('%s: an unknown field is refused', async (path, valid) => {
    const res = await post(path, { ...valid(), isAdmin: true });
    expectClean4xx(res);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ isAdmin: MSG.unknownField });
  });

  it.each(ENDPOINTS)('%s: bodies that are not objects', async (path) => {
    for (const body of ['[1,2]', '"text"', '42', 'null', 'true']) {
      const res = await request(h.app).post(path).set('Content-Type', 'application/json').send(body);
      expectClean4xx(res);
    }
    // A body that is not JSON, or none at all, counts as {}: every required field reports itself
    // (validate-user and custom-branding-detail have none).
    for (const res of [
      await request(h.app).post(path).set('Content-Type', 'text/plain').send('email=a'),
      await request(h.app).post(path),
    ]) {
      if (path === '/api/validate-user') expect(res.body).toEqual({});
      // No brand name and no domain: the request's host is looked up (it has no white label here).
      else if (path === '/api/tenant/custom-branding-detail') expect(res.status).toBe(204);
      else expectClean4xx(res);
    }
  });

  it.each(ENDPOINTS)('%s: wrong types in every field', async (path, valid) => {
    const body = valid();
    for (const [field, value] of Object.entries(body)) {
      for (const wrong of WRONG_TYPES.filter((w) => typeof w !== typeof value)) {
        const res = await post(path, { ...body, [field]: wrong });
        expectClean4xx(res);
        expect(res.status).toBe(400);
        expect(
          res.body.errors?.[field] ?? res.body.errors?.brandName,
          `${field}=${JSON.stringify(wrong)}`,
        ).toEqual(expect.any(String));
      }
    }
  });

  it.each(ENDPOINTS)('%s: missing fields', async (path, valid) => {
    const body = valid();
    for (const field of Object.keys(body)) {
      const rest = { ...body };
      delete rest[field];
      const res = await post(path, rest);
      expect(res.status, `${path} without ${field}`).toBeLessThan(500);
    }
  });

  it.each(ENDPOINTS)('%s: very long strings in every text field', async (path, valid) => {
    const body = valid();
    for (const [field, value] of Object.entries(body)) {
      if (typeof value !== 'string') continue;
      const res = await post(path, { ...body, [field]: 'a'.repeat(50_000) });
      expectClean4xx(res);
      expect(res.status).toBe(400);
    }
  });

  it.each(ENDPOINTS)('%s: script and SQL fragments in every text field', async (path, valid) => {
    const body = valid();
    for (const [field, value] of Object.entries(body)) {
      if (typeof value !== 'string') continue;
      for (const hostile of HOSTILE) {
        const res = await post(path, { ...body, [field]: hostile });
        expect(
          res.status,
          `${path} ${field}=${JSON.stringify(hostile)}: ${JSON.stringify(res.body)}`,
        ).toBeLessThan(500);
        expect(res.text).not.toContain('<script>');
        expect(res.text).not.toContain('<img');
      }
    }
  });
});

describe('hostile text that is allowed is stored verbatim and answered escaped', () => {
  it('keeps a script-like name as text', async () => {
    const n = uniqueName('xss');
    const name = '<script>alert("x")</script> \'; DROP TABLE "User"; --';
    const res = await request(h.app)
      .post('/api/user/register')
      .send({
        name,
        user_name: n,
        email: `${n}@example.test`,
        password: "pa'ss<word>--",
        emailstatus: false,
      });
    expect(res.status).toBe(201);
    expect(res.body.user.name).toBe(name);
    expect(res.text).not.toContain('<script>');
    expect(res.text).toContain('\\u003cscript\\u003e');
    const stored = await h.db.user.findUniqueOrThrow({ where: { userName: n } });
    expect(stored.name).toBe(name);
    expect(await h.db.user.count()).toBeGreaterThan(1); // the table is still there
    const login = await request(h.app)
      .post('/api/user/login')
      .send({ email: `${n}@example.test`, password: "pa'ss<word>--" });
    expect(login.status).toBe(200);
  });

  it('refuses control characters (NUL) in a name with a field error', async () => {
    const n = uniqueName('nul');
    const res = await request(h.app)
      .post('/api/user/register')
      .send({
        name: 'a\u0000b',
        user_name: n,
        email: `${n}@example.test`,
        password: 'password1',
        emailstatus: false,
      });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ name: MSG.invalidCharacters });
  });

  it('answers a too-long name with its limit', async () => {
    const n = uniqueName('long');
    const res = await request(h.app)
      .post('/api/user/register')
      .send({
        name: 'x'.repeat(LIMITS.name + 1),
        user_name: n,
        email: `${n}@example.test`,
        password: 'password1',
        emailstatus: false,
      });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ name: MSG.tooLong(LIMITS.name) });
  });
});

describe('paths and parameters', () => {
  it('answers JSON 404 for unknown /api paths and methods', async () => {
    for (const res of [
      await request(h.app).get('/api/nope'),
      await request(h.app).delete('/api/user/login'),
      await request(h.app).get(`/api/t/${tenantPrefix}/nope`).set('Authorization', `Bearer ${token}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        statusCode: 404,
        error: 'Not Found',
        code: 'NOT_FOUND',
        message: MSG.notFound,
      });
    }
  });

  it('takes hostile tenant path segments as a 404', async () => {
    for (const segment of ['%3Cscript%3E', "'%20OR%201=1", 'x'.repeat(300), '%00', '..']) {
      const res = await request(h.app)
        .get(`/api/t/${segment}/user/info`)
        .set('Authorization', `Bearer ${token}`);
      expect([400, 404]).toContain(res.status);
      expect(res.text).not.toContain('<script>');
    }
  });

  it('answers a malformed percent-encoding in the path with a 4xx, never a 500', async () => {
    for (const path of [
      '/api/files/images/%E0%A4%A',
      '/api/files/images/%',
      '/api/files/models/%zz',
      `/api/t/%E0/user/info`,
      `/api/t/${tenantPrefix}/%E0%A4%A`,
      '/api/t/%/model/all',
    ]) {
      const res = await request(h.app).get(path).set('Authorization', `Bearer ${token}`);
      expectClean4xx(res);
      expect(res.body, path).toEqual({
        statusCode: res.status,
        error: expect.any(String),
        code: expect.any(String),
        message: expect.any(String),
      });
      expect(res.text).not.toMatch(/URIError|Failed to decode|at /);
    }
    const res = await request(h.app).get('/api/files/images/%E0%A4%A');
    expect(res.body).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      code: 'BAD_REQUEST',
      message: MSG.defaultError,
    });
  });

  it('refuses NUL and other control characters in query parameters with a 400', async () => {
    for (const query of [
      'model=%00&subscription=x&currentmode=embedding',
      'model=a%00b&subscription=x&currentmode=standard',
      'model=heart%0Aanatomy&subscription=x&currentmode=embedding',
      'model=Heart&subscription=x&currentmode=embedding',
      'model=heart-anatomy&subscription=x%00&currentmode=embedding',
      'model=heart-anatomy&subscription=v1.a%00.b&currentmode=standard',
      'model=heart-anatomy&subscription=x&currentmode=embedding&version=1%00',
      `model=${'a'.repeat(101)}&subscription=x&currentmode=embedding`,
    ]) {
      const res = await request(h.app).get(`/api/viewer/model?${query}`);
      expect(res.status, query).toBe(400);
      expectClean4xx(res);
    }
    expect((await request(h.app).post('/api/model/embed/detail').send({ token: 'a\u0000b' })).status).toBe(
      400,
    );
    // PostgreSQL's "invalid byte sequence" (SQLSTATE 22021) never reached: the input was refused first. As a
    // whole word, since request ids in the same log are random hex and can hold the digits.
    expect(h.logs.text).not.toMatch(/\b22021\b|invalid byte sequence/);
  });

  it('takes hostile query strings as a 400', async () => {
    const res = await request(h.app).get('/api/auth/google?type[]=login&type=signup');
    expect([400, 404]).toContain(res.status);
  });
});

/** The seven outbox routes (Idempotency-Key), by who may call them. */
const OUTBOX_ROUTES: [string, 'admin' | 'customer'][] = [
  ['/role/create', 'admin'],
  ['/role/delete', 'admin'],
  ['/user/assignRoles', 'admin'],
  ['/user/invite', 'customer'],
  ['/tenant/update', 'customer'],
  ['/user/edit', 'customer'],
  ['/model/update', 'admin'],
];

/** `{"a":{"a":...}}` nested `depth` times (as text: building it as an object is the same risk). */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('bounded input', () => {
  let admin: Caller;
  beforeAll(async () => {
    admin = await platformAdmin(h);
  });
  const base = (who: 'admin' | 'customer') =>
    who === 'admin' ? { base: admin.base, token: admin.token } : { base: `/api/t/${tenantPrefix}`, token };

  it.each(OUTBOX_ROUTES)(
    '%s: a body nested 3,000 deep (with an Idempotency-Key) is a 400',
    async (path, who) => {
      const caller = base(who);
      for (const body of [nested(3000), `[${nested(3000)}]`, `${'['.repeat(3000)}${']'.repeat(3000)}`]) {
        const res = await request(h.app)
          .post(`${caller.base}${path}`)
          .set(bearer(caller.token))
          .set(IDEMPOTENCY_HEADER, randomUUID())
          .set('Content-Type', 'application/json')
          .send(body);
        expectClean4xx(res);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ code: ERROR_CODES.bodyTooDeep, message: MSG.bodyTooDeep });
      }
    },
  );

  it('the depth limit is 64: deeper is refused by the body parser, up to it the route decides', async () => {
    const path = '/api/user/login';
    const at = await request(h.app).post(path).set('Content-Type', 'application/json').send(nested(64));
    expect(at.status).toBe(400);
    expect(at.body.code).not.toBe(ERROR_CODES.bodyTooDeep);
    const over = await request(h.app).post(path).set('Content-Type', 'application/json').send(nested(65));
    expect(over.status).toBe(400);
    expect(over.body.code).toBe(ERROR_CODES.bodyTooDeep);
    // Brackets inside strings are text, not nesting.
    const text = await request(h.app)
      .post(path)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ email: '['.repeat(200), password: '{"'.repeat(200) }));
    expect(text.body.code).not.toBe(ERROR_CODES.bodyTooDeep);
  });

  it('the bulk invite (its own body parser) has the same depth rule', async () => {
    const res = await request(h.app)
      .post(`/api/t/${tenantPrefix}/user/bulk-invite`)
      .set(bearer(token))
      .set('Content-Type', 'application/json')
      .send(`{"users":${nested(3000)}}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(ERROR_CODES.bodyTooDeep);
  });

  it('ids and numbers past PostgreSQL int4 are a 400, never a 500', async () => {
    const tooBig = 2_147_483_648;
    const cases: [string, 'admin' | 'customer', Record<string, unknown>][] = [
      [
        '/user/add-user',
        'admin',
        {
          name: 'Big',
          user_name: uniqueName('big'),
          email: `${uniqueName('big')}@example.test`,
          password: 'password1',
          planId: tooBig,
          subscription: 'MONTHLY',
        },
      ],
      ['/role/delete', 'admin', { id: tooBig }],
      ['/role/create', 'admin', { id: tooBig, name: 'Big', permissions: [] }],
      ['/role/create', 'admin', { id: 0, name: uniqueName('Big '), permissions: [tooBig] }],
      ['/user/assignRoles', 'admin', { id: tooBig, roles: [1] }],
      ['/user/detail', 'customer', { id: tooBig }],
      ['/user/resend-invite', 'customer', { id: tooBig }],
      ['/model/delete', 'admin', { id: tooBig }],
    ];
    for (const [path, who, body] of cases) {
      const caller = base(who);
      const res = await request(h.app).post(`${caller.base}${path}`).set(bearer(caller.token)).send(body);
      expectClean4xx(res);
      // The customer here may not call these (403 before validation); the admin's calls reach it.
      if (who === 'admin')
        expect(res.status, `${path} ${JSON.stringify(body)}: ${JSON.stringify(res.body)}`).toBe(400);
    }
  });
});

/** Every documented route of a method, as a path to call (the tenant segment and ids filled in). */
function documentedPaths(method: 'get' | 'post', tenant: string): string[] {
  const paths = Object.entries(openApiDocument().paths ?? {})
    .filter(([, item]) => (item as Record<string, unknown>)[method])
    // The Stripe webhook reads its raw body and checks the signature first (not configured here: 503).
    .filter(([path]) => !path.includes('/stripe/webhook'))
    .map(([path]) => path.replace('{tenant}', tenant).replace(/\{[^}]+\}/g, '1'));
  expect(paths.length).toBeGreaterThan(10);
  return paths;
}

/** Text PostgreSQL cannot store: NUL, and lone UTF-16 surrogates (not encodable as UTF-8). */
const UNSTORABLE = ['a\u0000b', '\u0000', 'Uma \ud800 X', '\udfff', 'x\ud800\u0000'];

/** Refused before the input is read: no session, no permission, not found, rate limited. */
const REFUSED_FIRST = new Set([401, 403, 404, 429]);

/** GET routes that read no query parameter at all (a query is ignored, never stored or searched). */
const NO_QUERY_READ = [
  /^\/api\/openapi\.json$/,
  /^\/api\/docs/,
  /^\/api\/(health|ready)/,
  /^\/api\/lti\/jwks\//,
  // Google's answer: any failure goes back to the sign-in page with a message (302).
  /^\/api\/auth\/google\/callback$/,
];

describe('text PostgreSQL cannot store, on every route', () => {
  let callers: Caller[];
  beforeAll(async () => {
    const plan = await createPlan(h.db, {
      customBranding: true,
      modelEmbed: true,
      viewLimit: 1000,
      permissions: CUSTOMER_PLAN_PERMISSIONS,
    });
    callers = [await customer(h, { plan }), await platformAdmin(h)];
  });

  it(
    'every POST route answers 400 to NUL or a lone surrogate anywhere in a JSON body',
    { timeout: 600_000 },
    async () => {
      const notRefused = new Set<string>();
      for (const caller of callers) {
        for (const path of documentedPaths('post', caller.tenant.domainPrefix)) {
          for (const bad of UNSTORABLE) {
            for (const body of [{ name: bad }, { users: [{ name: 'ok', email: bad }] }, { [bad]: 'key' }]) {
              const res = await request(h.app).post(path).set(bearer(caller.token)).send(body);
              expect(res.status, `${path} ${JSON.stringify(body)}: ${res.text}`).toBeLessThan(500);
              if (res.status !== 400 && !REFUSED_FIRST.has(res.status))
                notRefused.add(`${path} ${res.status}`);
            }
          }
        }
      }
      expect([...notRefused]).toEqual([]);
      expect(h.logs.text).not.toMatch(/\b22021\b|invalid byte sequence|22P05/);
    },
  );

  it(
    'every GET route answers 400 to NUL or a lone surrogate in a query parameter',
    { timeout: 600_000 },
    async () => {
      const notRefused = new Set<string>();
      for (const caller of callers) {
        for (const path of documentedPaths('get', caller.tenant.domainPrefix)) {
          for (const bad of ['a%00b', '%00', encodeURIComponent('Uma ') + '%00']) {
            const res = await request(h.app)
              .get(`${path}?search=${bad}&actor=${bad}`)
              .set(bearer(caller.token));
            expect(res.status, `${path}?search=${bad}: ${res.text}`).toBeLessThan(500);
            const ignored = NO_QUERY_READ.some((re) => re.test(path));
            if (res.status !== 400 && !REFUSED_FIRST.has(res.status) && !ignored)
              notRefused.add(`${path} ${res.status}`);
          }
        }
      }
      expect([...notRefused]).toEqual([]);
      expect(h.logs.text).not.toMatch(/\b22021\b|invalid byte sequence|22P05/);
    },
  );

  it.each(ENDPOINTS)('%s: 8 identical requests at once never give a 5xx', async (path, valid) => {
    const body = valid();
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(path, body)));
    for (const res of answers) expect(res.status, `${path}: ${res.text}`).toBeLessThan(500);
  });

  it('every POST route: 8 identical requests at once never give a 5xx', { timeout: 600_000 }, async () => {
    for (const caller of callers) {
      for (const path of documentedPaths('post', caller.tenant.domainPrefix)) {
        const answers = await Promise.all(
          Array.from({ length: 8 }, () =>
            request(h.app).post(path).set(bearer(caller.token)).send({ id: 1, name: 'Same' }),
          ),
        );
        for (const res of answers) expect(res.status, `${path}: ${res.text}`).toBeLessThan(500);
      }
    }
  });
});
