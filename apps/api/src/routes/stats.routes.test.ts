import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { UserStatsPage } from '@helix/shared/schemas/list-query';
import {
  CUSTOMER_PLAN_PERMISSIONS,
  createPlan,
  createUser,
  seedRoles,
} from '@helix/server/testing/factories';
import { createHarness, type Harness } from '../../test/harness.ts';
import { bearer, customer, platformAdmin, type Caller } from '../../test/models.ts';

let h: Harness;
let admin: Caller;
let owner: Caller;
let other: Caller;
let modelId: number;

const today = new Date(new Date().toISOString().slice(0, 10));

beforeAll(async () => {
  h = await createHarness();
  await seedRoles(h.db);
  admin = await platformAdmin(h);
  const plan = await createPlan(h.db, { userLimit: 100, permissions: CUSTOMER_PLAN_PERMISSIONS });
  owner = await customer(h, { name: 'Stats School', plan });
  other = await customer(h, { name: 'Other Stats School', plan });
  const model = await h.db.model.create({ data: { name: 'Heart', urlModelName: `heart-${Date.now()}` } });
  modelId = model.id;
  // 12 pupils with 1..12 views each in the owner's school, 1 user with 100 views in the other school.
  for (let i = 1; i <= 12; i += 1) {
    const user = await createUser(h.db, {
      tenant: owner.tenant,
      name: `Pupil ${String(i).padStart(2, '0')}`,
    });
    await h.db.modelViewDaily.create({
      data: {
        modelId,
        tenantId: owner.tenant.id,
        day: today,
        source: 'portal',
        viewerKey: `u:${user.id}`,
        userId: user.id,
        count: i,
      },
    });
  }
  const far = await createUser(h.db, { tenant: other.tenant, name: 'Far Pupil' });
  await h.db.modelViewDaily.create({
    data: {
      modelId,
      tenantId: other.tenant.id,
      day: today,
      source: 'portal',
      viewerKey: `u:${far.id}`,
      userId: far.id,
      count: 100,
    },
  });
});
afterAll(async () => {
  await h?.close();
});

const stats = async (caller: Caller, query: Record<string, string | number> = {}) => {
  const res = await request(h.app).get(`${caller.base}/stats/users`).query(query).set(bearer(caller.token));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return UserStatsPage.parse(res.body);
};

describe('GET /stats/users', () => {
  it("an owner's top users: their school only, most views first, paged, summed by the database", async () => {
    const first = await stats(owner, { page: 1, pageSize: 5 });
    expect(first.rows.map((r) => r.views)).toEqual([12, 11, 10, 9, 8]);
    expect(first.total).toBe(13); // the 12 pupils and the owner
    expect(first.totalViews).toBe(78);
    const third = await stats(owner, { page: 3, pageSize: 5 });
    expect(third.rows.map((r) => r.views)).toEqual([2, 1, 0]);
    expect(JSON.stringify([first, third])).not.toContain('Far Pupil');
  });

  it('searches names and e-mails (a % is a literal) and sorts by an allowed field', async () => {
    const found = await stats(owner, { search: 'pupil 0', sort: 'name', order: 'asc' });
    expect(found.rows.map((r) => r.name)).toEqual([...Array(9)].map((_, i) => `Pupil 0${i + 1}`));
    expect((await stats(owner, { search: '%' })).total).toBe(0);
  });

  it("a platform admin's: every school's users, the far pupil on top", async () => {
    const top = await stats(admin, { pageSize: 1, search: 'pupil' });
    expect(top.rows[0]).toMatchObject({ name: 'Far Pupil', tenantName: 'Other Stats School', views: 100 });
    expect(top.total).toBe(13);
    expect(top.totalViews).toBe(178);
  });

  it('a bad query is a 400 with the catalogue message', async () => {
    for (const [query, message] of [
      [{ pageSize: 101 }, MSG.listPageSizeInvalid],
      [{ page: 0 }, MSG.listPageInvalid],
      [{ sort: 'passwordHash' }, MSG.listSortInvalid],
      [{ order: 'up' }, MSG.listOrderInvalid],
      [{ search: 'x'.repeat(201) }, MSG.listSearchTooLong],
    ] as const) {
      const res = await request(h.app).get(`${owner.base}/stats/users`).query(query).set(bearer(owner.token));
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(message);
    }
  });
});
