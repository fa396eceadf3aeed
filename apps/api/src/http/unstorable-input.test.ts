import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { IDEMPOTENCY_HEADER } from '@helix/shared/schemas/outbox';
import { CUSTOMER_PLAN_PERMISSIONS, createPlan, seedRoles } from '@helix/server/testing/factories';
import { createHarness, type Harness } from '../../test/harness.ts';
import { bearer, customer, platformAdmin, type Caller } from '../../test/models.ts';
import { isStorableText, unstorableAt } from './unsafe-text.ts';

/**
 * Text PostgreSQL cannot store or compare (NUL, a lone UTF-16 surrogate) in a search, a filter, a path
 * or a JSON body is a 400 naming the field, on every route, and never reaches the database (a 500);
 * concurrent writes that meet on a unique constraint or a lock are serialized, never a 5xx.
 */
let h: Harness;
let owner: Caller;
let admin: Caller;

beforeAll(async () => {
  h = await createHarness();
  await seedRoles(h.db);
  const plan = await createPlan(h.db, {
    customBranding: true,
    modelEmbed: true,
    viewLimit: 1000,
    permissions: CUSTOMER_PLAN_PERMISSIONS,
  });
  owner = await customer(h, { name: 'Unstorable School', plan });
  admin = await platformAdmin(h);
});
afterAll(async () => {
  await h?.close();
});

const get = (caller: Caller, path: string) =>
  request(h.app).get(`${caller.base}${path}`).set(bearer(caller.token));

function expectRefused(res: request.Response, field: string) {
  expect(res.status, res.text).toBe(400);
  expect(res.body).toMatchObject({ statusCode: 400, message: MSG.invalidCharacters });
  expect(res.body.errors).toEqual({ [field]: MSG.invalidCharacters });
}

describe('storable text', () => {
  it('tells NUL and lone surrogates from any other text', () => {
    expect(isStorableText('Uma 😀 X ünï 漢字 \n\t')).toBe(true);
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('Uma \ud800 X')).toBe(false);
    expect(isStorableText('\udc00')).toBe(false);
    expect(unstorableAt({ users: [{ email: 'a' }, { email: 'b\u0000' }] })).toBe('users.1.email');
    expect(unstorableAt({ ['k\u0000']: 1 })).toBe('k\u0000');
    expect(unstorableAt({ a: ['ok', 1, null, { b: '😀' }] })).toBeUndefined();
  });
});

describe('NUL in searches and filters', () => {
  it('answers 400 on the lists, statistics, links and audit', async () => {
    expectRefused(await get(owner, '/user/all?search=a%00b'), 'search');
    expectRefused(await get(admin, '/user/all?search=a%00b'), 'search');
    expectRefused(await get(admin, '/stats/users?search=a%00b'), 'search');
    expectRefused(await get(owner, '/model/links?search=%00'), 'search');
    expectRefused(await get(owner, '/audit?actor=a%00'), 'actor');
    expectRefused(await get(owner, '/audit/export?actor=%00'), 'actor');
    // A lone surrogate's bytes are not UTF-8: the query parser keeps them as they came, refused here too.
    expect((await get(owner, '/user/all?search=%ED%A0%80')).status).toBeLessThan(500);
    expect(h.logs.text).not.toMatch(/\b22021\b|invalid byte sequence/);
  });

  it('answers 400 to an anonymous NUL in a path segment', async () => {
    expectRefused(await request(h.app).get('/api/lti/jwks/%00'), 'path');
    expectRefused(await request(h.app).get('/api/lti/jwks/a%00b'), 'path');
  });
});

describe('a lone surrogate in JSON', () => {
  it('is a 400 naming the field on /user/edit, and nothing is stored or audited', async () => {
    const res = await request(h.app)
      .post(`${owner.base}/user/edit`)
      .set(bearer(owner.token))
      .set('Content-Type', 'application/json')
      .send('{"name":"Uma \\ud800 X"}');
    expectRefused(res, 'name');
    const user = await h.db.user.findFirstOrThrow({ where: { tenantId: owner.tenant.id } });
    expect(user.name).not.toContain('Uma');
  });
});

describe('concurrent writes', () => {
  it('8 LTI key rotations at once all succeed, leaving one active key', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        request(h.app).post(`${owner.base}/lti/key/rotate`).set(bearer(owner.token)).send({}),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(200));
    const active = await h.db.ltiToolKey.count({ where: { activeFor: owner.tenant.id } });
    expect(active).toBe(1);
    expect(await h.db.ltiToolKey.count({ where: { tenantId: owner.tenant.id } })).toBeGreaterThanOrEqual(8);
  });

  it('8 branding saves at once all succeed, each counted in the version', async () => {
    const save = (i: number) =>
      request(h.app)
        .post(`${owner.base}/tenant/update`)
        .set(bearer(owner.token))
        // As the web's outbox sends it: each save with its own Idempotency-Key, a new brand name each.
        .set(IDEMPOTENCY_HEADER, randomUUID())
        .field('customBrandName', `unstorable-${owner.tenant.id}-${i}`)
        .field('primaryColor', `#0000${(10 + i).toString(16).padStart(2, '0')}`);
    const before = (await h.db.branding.findUnique({ where: { tenantId: owner.tenant.id } }))?.version ?? 1;
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => save(i)));
    expect(
      answers.map((r) => r.status),
      answers.map((r) => r.text).join('\n'),
    ).toEqual(Array(8).fill(200));
    const row = await h.db.branding.findUniqueOrThrow({ where: { tenantId: owner.tenant.id } });
    expect(row.version).toBe(before + 8);
  });
});
