import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { UserStatsPage } from '@helix/shared/schemas/list-query';
import { PlatformUserList, PlatformUserPage } from '@helix/shared/schemas/platform-user';
import { TenantOptionPage } from '@helix/shared/schemas/tenant-option';
import { TenantUserList, TenantUserPage } from '@helix/shared/schemas/tenant-user';
import {
  CUSTOMER_PLAN_PERMISSIONS,
  createPlan,
  createUser,
  seedRoles,
} from '@helix/server/testing/factories';
import { createHarness, type Harness } from '../../test/harness.ts';
import { bearer, customer, member, platformAdmin, type Caller } from '../../test/models.ts';

/**
 * The users lists at scale (docs/lists-at-scale.md): the owner's users (GET /user/all), the
 * platform's users (/users, /permissions: GET /user/all as a platform admin) and the model form's
 * tenant picker (GET /tenant/getAllTenants), each paged, searched and sorted by the server; every
 * list shows and searches the address a school knows, never an invite's placeholder.
 */
let h: Harness;
let admin: Caller;
let owner: Caller;
let other: Caller;
let pupil: Caller;

const PLACEHOLDER = 'invite-0123456789abcdef01234567@elsewhere.invalid';
const FOREIGN = 'jordan.far@elsewhere-school.test';

beforeAll(async () => {
  h = await createHarness();
  await seedRoles(h.db);
  admin = await platformAdmin(h);
  const plan = await createPlan(h.db, { userLimit: 100, permissions: CUSTOMER_PLAN_PERMISSIONS });
  owner = await customer(h, { name: 'Lists School', plan });
  await h.db.user.update({
    where: { id: owner.user.id },
    data: { name: 'Olivia Owner', email: 'olivia@lists.test', isOwner: true },
  });
  await h.db.tenantSubscription.update({ where: { tenantId: owner.tenant.id }, data: { userLimit: 100 } });
  other = await customer(h, { name: 'Other Lists School', plan });
  await h.db.user.update({
    where: { id: other.user.id },
    data: { name: 'Far Owner', email: 'far@other.test' },
  });
  // 25 pupils (Pupil 01 … Pupil 25, pupil01@lists.test …), created oldest first.
  for (let i = 1; i <= 25; i += 1) {
    const n = String(i).padStart(2, '0');
    const user = await createUser(h.db, {
      tenant: owner.tenant,
      name: `Pupil ${n}`,
      email: `pupil${n}@lists.test`,
      password: null,
      roles: ['User'],
      isOwner: false,
    });
    await h.db.user.update({ where: { id: user.id }, data: { createdAt: new Date(Date.UTC(2026, 0, i)) } });
  }
  await createUser(h.db, {
    tenant: owner.tenant,
    name: '100% sure_thing',
    email: 'percent@lists.test',
    password: null,
    isOwner: false,
  });
  // A pending invite of an address registered at another school (docs/invite-privacy.md).
  await h.db.user.create({
    data: {
      tenantId: owner.tenant.id,
      name: 'Jordan Elsewhere',
      userName: 'jordan-elsewhere',
      email: PLACEHOLDER,
      elsewhereEmail: FOREIGN,
    },
  });
  await createUser(h.db, {
    tenant: other.tenant,
    name: 'Pupil Far',
    email: 'pupil@other.test',
    isOwner: false,
  });
  await createUser(h.db, {
    tenant: owner.tenant,
    name: 'Pupil Gone',
    email: 'gone@lists.test',
    isOwner: false,
    deletedAt: new Date(),
  });
  pupil = await member(h, owner.tenant, ['User']);
  await h.db.user.update({
    where: { id: pupil.user.id },
    data: { name: 'Zed Member', email: 'zed@lists.test' },
  });
});
afterAll(async () => {
  await h?.close();
});

const get = (caller: Caller | null, path: string, query: object = {}, base = caller?.base ?? owner.base) => {
  const req = request(h.app).get(`${base}${path}`).query(query);
  return caller ? req.set(bearer(caller.token)) : req;
};

const ok = async (caller: Caller, path: string, query: object = {}) => {
  const res = await get(caller, path, query);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown;
};

// Paging is opt-in: these ask for page 1 unless the query names another.
const tenantPage = async (query: object) =>
  TenantUserPage.parse(await ok(owner, '/user/all', { page: 1, ...query }));
const platformPage = async (query: object) =>
  PlatformUserPage.parse(await ok(admin, '/user/all', { page: 1, ...query }));
const tenantsPage = async (query: object) =>
  TenantOptionPage.parse(await ok(admin, '/tenant/getAllTenants', { page: 1, ...query }));

/** The 400s every list gives for a bad query, with the catalogue's message. */
async function expectBadQueries(caller: Caller, path: string) {
  for (const [query, message] of [
    [{ page: 0 }, MSG.listPageInvalid],
    [{ page: 'two' }, MSG.listPageInvalid],
    [{ pageSize: 101 }, MSG.listPageSizeInvalid],
    [{ pageSize: 0 }, MSG.listPageSizeInvalid],
    [{ sort: 'passwordHash' }, MSG.listSortInvalid],
    [{ order: 'up' }, MSG.listOrderInvalid],
    [{ search: 'x'.repeat(201) }, MSG.listSearchTooLong],
  ] as const) {
    const res = await get(caller, path, query);
    expect(res.status, `${path} ${JSON.stringify(query)}`).toBe(400);
    expect(res.body.message).toBe(message);
  }
  const unknown = await get(caller, path, { limit: 5 });
  expect(unknown.status).toBe(400);
}

describe("GET /user/all?page=… (the owner's users list)", () => {
  // The school: Olivia Owner, Pupil 01–25, 100% sure_thing, Jordan Elsewhere, Zed Member = 29 users.
  it('pages by name with the total of every matching user and the seat count', async () => {
    const first = await tenantPage({ page: 1, pageSize: 10 });
    expect(first.total).toBe(29);
    expect(first).toMatchObject({ page: 1, pageSize: 10, userLimit: 100 });
    expect(first.totalUsers).toBe(29);
    expect(first.rows.map((u) => u.name)).toEqual([
      '100% sure_thing',
      'Jordan Elsewhere',
      'Olivia Owner',
      ...[1, 2, 3, 4, 5, 6, 7].map((i) => `Pupil 0${i}`),
    ]);
    const third = await tenantPage({ page: 3, pageSize: 10 });
    expect(third.rows.map((u) => u.name)).toEqual([
      ...[18, 19, 20, 21, 22, 23, 24, 25].map((i) => `Pupil ${i}`),
      'Zed Member',
    ]);
    expect((await tenantPage({ page: 4, pageSize: 10 })).rows).toEqual([]);
  });

  it("never shows another school's users or deleted users", async () => {
    const all = await tenantPage({ pageSize: 100 });
    const text = JSON.stringify(all);
    expect(text).not.toContain('Pupil Far');
    expect(text).not.toContain('Far Owner');
    expect(text).not.toContain('Pupil Gone');
    expect((await tenantPage({ search: 'far' })).rows.map((u) => u.email)).toEqual([FOREIGN]);
    const theirs = TenantUserPage.parse(await ok(other, '/user/all', { pageSize: 100 }));
    expect(theirs.rows.map((u) => u.name).sort()).toEqual(['Far Owner', 'Pupil Far']);
  });

  it('searches name or e-mail, case-insensitive, with % and _ taken literally', async () => {
    expect((await tenantPage({ search: 'PUPIL 1' })).rows.map((u) => u.name)).toEqual(
      [...Array(10)].map((_, i) => `Pupil ${10 + i}`),
    );
    const byMail = await tenantPage({ search: 'pupil07@' });
    expect(byMail.rows.map((u) => u.name)).toEqual(['Pupil 07']);
    expect(byMail.total).toBe(1);
    expect((await tenantPage({ search: '%' })).rows.map((u) => u.name)).toEqual(['100% sure_thing']);
    expect((await tenantPage({ search: 'e_t' })).rows.map((u) => u.name)).toEqual(['100% sure_thing']);
    expect((await tenantPage({ search: 'nobody here' })).total).toBe(0);
  });

  it('sorts by each allowed field both ways', async () => {
    const names = async (sort: string, order: string) =>
      (await tenantPage({ sort, order, pageSize: 3 })).rows.map((u) => u.name);
    expect(await names('name', 'desc')).toEqual(['Zed Member', 'Pupil 25', 'Pupil 24']);
    expect(await names('email', 'asc')).toEqual(['Jordan Elsewhere', 'Olivia Owner', '100% sure_thing']);
    expect(await names('email', 'desc')).toEqual(['Zed Member', 'Pupil 25', 'Pupil 24']);
    expect((await names('createdAt', 'asc')).slice(0, 2)).toEqual(['Pupil 01', 'Pupil 02']);
    const newest = await names('createdAt', 'desc');
    expect(newest).not.toContain('Pupil 01');
  });

  it('shows and searches the invited address, never the placeholder', async () => {
    const all = await tenantPage({ pageSize: 100 });
    expect(JSON.stringify(all)).not.toContain('elsewhere.invalid');
    expect(all.rows.find((u) => u.name === 'Jordan Elsewhere')?.email).toBe(FOREIGN);
    expect((await tenantPage({ search: 'jordan.far' })).rows.map((u) => u.name)).toEqual([
      'Jordan Elsewhere',
    ]);
    for (const hidden of ['elsewhere.invalid', 'invite-0123', '.invalid']) {
      expect((await tenantPage({ search: hidden })).total, hidden).toBe(0);
    }
  });

  it('without page or pageSize answers every matching user (the export), in the asked order', async () => {
    const list = TenantUserList.parse(
      await ok(owner, '/user/all', { search: 'pupil', sort: 'name', order: 'desc' }),
    );
    expect(list.users.map((u) => u.name)).toEqual(
      [...Array(25)].map((_, i) => `Pupil ${String(25 - i).padStart(2, '0')}`),
    );
    const everyone = TenantUserList.parse(await ok(owner, '/user/all'));
    expect(everyone.users).toHaveLength(29);
    expect(JSON.stringify(everyone)).not.toContain('elsewhere.invalid');
  });

  it('a bad query is a 400 with the catalogue message', async () => {
    await expectBadQueries(owner, '/user/all');
  });

  it('needs User.listing.view, a session and the own tenant', async () => {
    expect((await get(pupil, '/user/all', { page: 1 })).status).toBe(403);
    expect((await get(null, '/user/all', { page: 1 })).status).toBe(401);
    expect((await get(other, '/user/all', { page: 1 }, owner.base)).status).toBe(404);
  });
});

describe('GET /user/all?page=… as a platform admin (/users, /permissions)', () => {
  it('pages every school, newest first, with the total', async () => {
    const all = await platformPage({ pageSize: 100 });
    // Owner, 25 pupils, 100%, Jordan, Zed; Far Owner, Pupil Far; the platform admin.
    expect(all.total).toBe(32);
    const first = await platformPage({ page: 1, pageSize: 5 });
    expect(first.total).toBe(32);
    expect(first.rows).toHaveLength(5);
    const second = await platformPage({ page: 2, pageSize: 5 });
    expect(second.rows.map((u) => u.id)).toEqual(all.rows.slice(5, 10).map((u) => u.id));
    expect(JSON.stringify(all)).not.toContain('Pupil Gone');
  });

  it('searches name or e-mail across schools, the invited address and never the placeholder', async () => {
    const found = await platformPage({ search: 'PUPIL F' });
    expect(found.rows.map((u) => [u.name, u.companyName])).toEqual([['Pupil Far', 'Other Lists School']]);
    expect((await platformPage({ search: 'jordan.far' })).rows.map((u) => u.email)).toEqual([FOREIGN]);
    expect((await platformPage({ search: 'elsewhere.invalid' })).total).toBe(0);
    expect(JSON.stringify(await platformPage({ pageSize: 100 }))).not.toContain('elsewhere.invalid');
    expect((await platformPage({ search: '_' })).rows.map((u) => u.name)).toEqual(['100% sure_thing']);
  });

  it('sorts by each allowed field', async () => {
    const rows = async (sort: string, order: string) =>
      (await platformPage({ sort, order, pageSize: 100 })).rows;
    expect((await rows('name', 'asc'))[0]?.name).toBe('100% sure_thing');
    expect((await rows('name', 'desc'))[0]?.name).toBe('Zed Member');
    expect((await rows('email', 'desc'))[0]?.email).toBe('zed@lists.test');
    const bySchool = (await rows('companyName', 'desc')).map((u) => u.companyName);
    expect(bySchool.indexOf('Other Lists School')).toBeLessThan(bySchool.indexOf('Lists School'));
    expect(bySchool.lastIndexOf('Other Lists School')).toBeLessThan(bySchool.indexOf('Lists School'));
    const oldest = await rows('createdAt', 'asc');
    expect(oldest[0]?.name).toBe('Pupil 01');
  });

  it('without page answers every matching user as before', async () => {
    const list = PlatformUserList.parse(await ok(admin, '/user/all', { search: 'pupil f' }));
    expect(list.map((u) => u.name)).toEqual(['Pupil Far']);
    expect(PlatformUserList.parse(await ok(admin, '/user/all'))).toHaveLength(32);
  });

  it('a bad query is a 400 with the catalogue message', async () => {
    await expectBadQueries(admin, '/user/all');
  });

  it('an owner asking the platform list gets only their own school', async () => {
    const mine = await tenantPage({ search: 'far', pageSize: 100 });
    expect(mine.rows.map((u) => u.name)).toEqual(['Jordan Elsewhere']);
    expect((await get(owner, '/user/all', { page: 1 }, admin.base)).status).toBe(404);
  });
});

describe('GET /tenant/getAllTenants?page=… (the tenant picker)', () => {
  it('pages the customer tenants by name, searched by name', async () => {
    for (let i = 1; i <= 12; i += 1)
      await customer(h, { name: `Picker Academy ${String(i).padStart(2, '0')}` });
    const first = await tenantsPage({ search: 'picker academy', pageSize: 5 });
    expect(first.total).toBe(12);
    expect(first.rows.map((t) => t.name)).toEqual([1, 2, 3, 4, 5].map((i) => `Picker Academy 0${i}`));
    const last = await tenantsPage({ search: 'PICKER', pageSize: 5, page: 3 });
    expect(last.rows.map((t) => t.name)).toEqual(['Picker Academy 11', 'Picker Academy 12']);
    const desc = await tenantsPage({ search: 'picker', order: 'desc', pageSize: 1 });
    expect(desc.rows[0]?.name).toBe('Picker Academy 12');
    expect((await tenantsPage({ search: '%' })).total).toBe(0);
    const all = await tenantsPage({ pageSize: 100 });
    expect(all.rows.some((t) => t.id === admin.tenant.id)).toBe(false);
  });

  it('answers the tenants of the given ids (the labels of those already chosen)', async () => {
    const chosen = await tenantsPage({ ids: `${other.tenant.id},${owner.tenant.id}` });
    expect(chosen.rows.map((t) => t.name)).toEqual(['Lists School', 'Other Lists School']);
    for (const ids of ['1,x', ',', '0', 'a'.repeat(5)]) {
      const res = await get(admin, '/tenant/getAllTenants', { ids, page: 1 });
      expect(res.status, ids).toBe(400);
      expect(res.body.message).toBe(MSG.listIdsInvalid);
    }
  });

  it('without page answers every customer tenant as before; bad queries are 400s', async () => {
    const list = (await ok(admin, '/tenant/getAllTenants')) as { name: string }[];
    expect(list.map((t) => t.name)).toContain('Lists School');
    await expectBadQueries(admin, '/tenant/getAllTenants');
  });

  it('is for platform admins only', async () => {
    expect((await get(owner, '/tenant/getAllTenants', { page: 1 })).status).toBe(403);
    expect((await get(null, '/tenant/getAllTenants', { page: 1 }, admin.base)).status).toBe(401);
  });
});

describe('GET /stats/users shows the address a school knows', () => {
  it('never the placeholder, searched by the invited address', async () => {
    const page = UserStatsPage.parse(
      await ok(owner, '/stats/users', { pageSize: 100, sort: 'email', order: 'asc' }),
    );
    expect(JSON.stringify(page)).not.toContain('elsewhere.invalid');
    expect(page.rows.find((u) => u.name === 'Jordan Elsewhere')?.email).toBe(FOREIGN);
    expect(page.rows[0]?.name).toBe('Jordan Elsewhere');
    const found = UserStatsPage.parse(await ok(owner, '/stats/users', { search: 'jordan.far' }));
    expect(found.rows.map((u) => u.email)).toEqual([FOREIGN]);
    for (const sort of ['views', 'name']) {
      const hidden = UserStatsPage.parse(
        await ok(admin, '/stats/users', { search: 'elsewhere.invalid', sort }),
      );
      expect(hidden.total, sort).toBe(0);
    }
    expect(JSON.stringify(await ok(admin, '/stats/users', { pageSize: 100 }))).not.toContain(
      'elsewhere.invalid',
    );
  });
});
