import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { EmbedLinkPage } from '@helix/shared/schemas/embed-link';
import { UserStatsPage } from '@helix/shared/schemas/list-query';
import { SubscriberList, SubscriberPage } from '@helix/shared/schemas/newsletter';
import { SupportRequestList, SupportRequestPage } from '@helix/shared/schemas/support';
import { createUser } from '@helix/server/testing/factories';
import {
  bearer,
  createModel,
  createModelHarness,
  customer,
  member,
  platformAdmin,
  type Caller,
  type ModelHarness,
} from '../../test/models.ts';

/**
 * Lists at scale (docs/lists-at-scale.md): the newsletter, support and links lists page, search and
 * sort with the shared listQuery; without `page`/`pageSize` they keep their whole-list answers.
 */
let h: ModelHarness;
let admin: Caller;
let owner: Caller;
const id = randomBytes(3).toString('hex');

beforeAll(async () => {
  h = await createModelHarness();
  admin = await platformAdmin(h);
  owner = await customer(h, { name: `Lists School ${id}` });
});
afterAll(async () => {
  await h?.close();
});

const get = (caller: Caller, path: string, query: Record<string, string | number> = {}) =>
  request(h.app).get(`${caller.base}${path}`).query(query).set(bearer(caller.token));
const ok = async (caller: Caller, path: string, query: Record<string, string | number> = {}) => {
  const res = await get(caller, path, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown;
};

/** The five bad queries of every list and their catalogue messages. */
const BAD: [Record<string, string | number>, string][] = [
  [{ pageSize: 101 }, MSG.listPageSizeInvalid],
  [{ page: 0 }, MSG.listPageInvalid],
  [{ page: 'two' }, MSG.listPageInvalid],
  [{ sort: 'passwordHash' }, MSG.listSortInvalid],
  [{ order: 'up' }, MSG.listOrderInvalid],
  [{ search: 'x'.repeat(201) }, MSG.listSearchTooLong],
];
async function expectBadQueries(caller: Caller, path: string) {
  for (const [query, message] of BAD) {
    const res = await get(caller, path, query);
    expect(res.status, JSON.stringify(query)).toBe(400);
    expect(res.body.message).toBe(message);
  }
  expect((await get(caller, path, { unknown: 1 })).status).toBe(400);
}

describe('GET /subscribers (paged)', () => {
  beforeAll(async () => {
    const now = Date.now();
    await h.db.newsletterSubscriber.createMany({
      data: Array.from({ length: 25 }, (_, i) => ({
        email: `list-${id}-${String(i + 1).padStart(2, '0')}@example.test`,
        createdAt: new Date(now - (i + 1) * 1000),
      })),
    });
  });

  it('pages, counts, searches (a % is literal) and sorts on the server', async () => {
    const first = SubscriberPage.parse(
      await ok(admin, '/subscribers', { search: `list-${id}`, pageSize: 10 }),
    );
    expect(first.total).toBe(25);
    expect(first.rows.map((r) => r.email.slice(-16, -13))).toEqual(
      ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10'].map((n) => `-${n}`),
    );
    const third = SubscriberPage.parse(
      await ok(admin, '/subscribers', { search: `LIST-${id}`, pageSize: 10, page: 3 }),
    );
    expect(third.rows).toHaveLength(5);
    expect(third).toMatchObject({ page: 3, pageSize: 10, total: 25 });
    const byEmail = SubscriberPage.parse(
      await ok(admin, '/subscribers', { search: `list-${id}`, sort: 'email', order: 'desc', page: 1 }),
    );
    expect(byEmail.rows[0]!.email).toBe(`list-${id}-25@example.test`);
    expect(SubscriberPage.parse(await ok(admin, '/subscribers', { search: '%', page: 1 })).total).toBe(0);
  });

  it('without a page: every matching subscriber (the export), in the order asked', async () => {
    const all = SubscriberList.parse(
      await ok(admin, '/subscribers', { search: `list-${id}`, sort: 'email', order: 'asc' }),
    );
    expect(all).toHaveLength(25);
    expect(all[0]!.email).toBe(`list-${id}-01@example.test`);
  });

  it('bad queries are 400 with the catalogue message; platform admins only', async () => {
    await expectBadQueries(admin, '/subscribers');
    expect((await get(owner, '/subscribers', { page: 1 })).status).toBe(403);
  });
});

describe('GET /support (paged)', () => {
  let schoolA: Caller;
  beforeAll(async () => {
    schoolA = await customer(h, { name: `Support School ${id}` });
    const sender = await createUser(h.db, {
      tenant: schoolA.tenant,
      name: `Sender ${id}`,
      email: `sender-${id}@mail.test`,
    });
    const now = Date.now();
    await h.db.supportRequest.createMany({
      data: Array.from({ length: 12 }, (_, i) => ({
        tenantId: schoolA.tenant.id,
        userId: sender.id,
        subject: `Paged ${id} ${String(i + 1).padStart(2, '0')}`,
        message: 'Details',
        targetHours: 16,
        priority: i === 10,
        status: (['open', 'answered', 'closed'] as const)[i % 3],
        createdAt: new Date(now - (12 - i) * 60_000),
      })),
    });
  });

  it('pages and counts with the filters and search, priority first, oldest first', async () => {
    const page = SupportRequestPage.parse(
      await ok(admin, '/support', { search: `paged ${id}`, status: 'open,answered', pageSize: 3 }),
    );
    expect(page.total).toBe(8);
    // The priority request (11, answered) first, then oldest first.
    expect(page.rows.map((r) => r.subject.slice(-2))).toEqual(['11', '01', '02']);
    const closed = SupportRequestPage.parse(
      await ok(admin, '/support', { search: `Sender ${id}`, status: 'closed', page: 1 }),
    );
    expect(closed.rows.map((r) => r.subject.slice(-2))).toEqual(['03', '06', '09', '12']);
    const byTenant = SupportRequestPage.parse(
      await ok(admin, '/support', {
        search: `Support School ${id}`,
        sort: 'created_at',
        order: 'desc',
        page: 2,
        pageSize: 5,
      }),
    );
    expect(byTenant.total).toBe(12);
    expect(byTenant.rows.map((r) => r.subject.slice(-2))).toEqual(['07', '06', '05', '04', '03']);
    // The sender's e-mail, `_` taken literally, and the status order (open, answered, closed).
    const byMail = SupportRequestPage.parse(
      await ok(admin, '/support', { search: `SENDER-${id}@MAIL`, sort: 'status', pageSize: 12 }),
    );
    expect(byMail.total).toBe(12);
    expect(byMail.rows.map((r) => r.subject.slice(-2))).toEqual([
      '11',
      '01',
      '04',
      '07',
      '10',
      '02',
      '05',
      '08',
      '03',
      '06',
      '09',
      '12',
    ]);
    const literal = SupportRequestPage.parse(await ok(admin, '/support', { search: `paged_${id}`, page: 1 }));
    expect(literal.total).toBe(0);
  });

  it('without a page: the list as before (filters and search applied)', async () => {
    const all = SupportRequestList.parse(
      await ok(admin, '/support', { search: `paged ${id}`, priority: 'true' }),
    );
    expect(all.map((r) => r.subject.slice(-2))).toEqual(['11']);
  });

  it('bad queries are 400 with the catalogue message; platform admins only', async () => {
    await expectBadQueries(admin, '/support');
    expect((await get(admin, '/support', { status: 'open,lost' })).status).toBe(400);
    expect((await get(owner, '/support', { page: 1 })).status).toBe(403);
  });
});

describe('GET /model/links (paged)', () => {
  let school: Caller;
  let pupil: Caller;
  beforeAll(async () => {
    school = await customer(h, { name: `Links School ${id}` });
    pupil = await member(h, school.tenant, ['Admin']);
    const other = await customer(h);
    const heart = await createModel(h, { name: `Heart ${id}` });
    const lung = await createModel(h, { name: `Lung ${id}` });
    const now = Date.now();
    const link = (tenantId: number, createdById: number, modelId: number, i: number) => ({
      tokenHash: randomBytes(32).toString('hex'),
      modelId,
      tenantId,
      createdById,
      settings: ['info'],
      createdAt: new Date(now - i * 60_000),
      expiresAt: i % 2 ? new Date(now + i * 3_600_000) : null,
    });
    await h.db.embedToken.createMany({
      data: [
        ...Array.from({ length: 15 }, (_, i) =>
          link(school.tenant.id, school.user.id, i < 10 ? heart.id : lung.id, i + 1),
        ),
        ...Array.from({ length: 3 }, (_, i) => link(school.tenant.id, pupil.user.id, lung.id, 20 + i)),
        // Another school's links are never listed.
        ...Array.from({ length: 4 }, (_, i) => link(other.tenant.id, other.user.id, heart.id, i + 1)),
      ],
    });
  });

  it("pages, counts, searches and sorts the tenant's links (the owner: every link; others: their own)", async () => {
    const first = EmbedLinkPage.parse(await ok(school, '/model/links', { pageSize: 10 }));
    expect(first.total).toBe(18);
    expect(first.rows).toHaveLength(10);
    expect(new Set(first.rows.map((r) => r.model.name))).toEqual(new Set([`Heart ${id}`]));
    const lungs = EmbedLinkPage.parse(await ok(school, '/model/links', { search: `lung ${id}`, page: 1 }));
    expect(lungs.total).toBe(8);
    const byModel = EmbedLinkPage.parse(
      await ok(school, '/model/links', { sort: 'model', order: 'desc', pageSize: 8 }),
    );
    expect(byModel.rows.every((r) => r.model.name === `Lung ${id}`)).toBe(true);
    const expiring = EmbedLinkPage.parse(
      await ok(school, '/model/links', { sort: 'expires_at', order: 'asc', pageSize: 18 }),
    );
    const expiries = expiring.rows.map((r) => r.expiresAt);
    expect(expiries.slice(0, 9).every((e) => e !== null)).toBe(true);
    expect(expiries.slice(9).every((e) => e === null)).toBe(true);
    const own = EmbedLinkPage.parse(await ok(pupil, '/model/links', { page: 1 }));
    expect(own.total).toBe(3);
  });

  it('bad queries are 400 with the catalogue message; Model.embed needed', async () => {
    await expectBadQueries(school, '/model/links');
    const nobody = await member(h, school.tenant, []);
    expect((await get(nobody, '/model/links', { page: 1 })).status).toBe(403);
  });
});

describe("GET /stats/users: the platform's running totals", () => {
  it('count views of live models only: a deleted model leaves the top users', async () => {
    const school = await customer(h, { name: `Totals School ${id}` });
    const model = await createModel(h, { name: `Totals ${id}` });
    const pupil = await createUser(h.db, { tenant: school.tenant, name: `Totals Pupil ${id}` });
    await h.db.modelViewDaily.create({
      data: {
        modelId: model.id,
        tenantId: school.tenant.id,
        day: new Date(new Date().toISOString().slice(0, 10)),
        source: 'portal',
        viewerKey: `u:${pupil.id}`,
        userId: pupil.id,
        count: 7,
      },
    });
    const before = UserStatsPage.parse(await ok(admin, '/stats/users', { search: `Totals Pupil ${id}` }));
    expect(before.rows[0]).toMatchObject({ name: `Totals Pupil ${id}`, views: 7 });
    expect(before.totalViews).toBe(7);
    expect((await get(admin, '/model/delete')).status).toBe(404);
    const deleted = await request(h.app)
      .post(`${admin.base}/model/delete`)
      .set(bearer(admin.token))
      .send({ id: model.id });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const after = UserStatsPage.parse(await ok(admin, '/stats/users', { search: `Totals Pupil ${id}` }));
    expect(after.rows[0]).toMatchObject({ views: 0 });
    expect(after.totalViews).toBe(0);
  });
});
