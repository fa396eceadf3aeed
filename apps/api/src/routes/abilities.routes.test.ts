import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbedLinkPage } from '@helix/shared/schemas/embed-link';
import { ModelListResponse } from '@helix/shared/schemas/model';
import { PlatformUserPage } from '@helix/shared/schemas/platform-user';
import { RoleView } from '@helix/shared/schemas/role';
import { SessionUser } from '@helix/shared/schemas/session';
import { TenantUserPage, UserDetailView } from '@helix/shared/schemas/tenant-user';
import { createUser, seedRoles, uniqueName } from '@helix/server/testing/factories';
import { createHarness, type Harness } from '../../test/harness.ts';
import { bearer, customer, member, platformAdmin, type Caller } from '../../test/models.ts';

/**
 * Abilities from the server, per item (Outline's presentPolicies): each list and detail carries what
 * the caller may do with each item, from the policy functions the calls enforce; the session carries
 * its pages. Checked for a school's owner, a school user with the Admin role, a plain User and a
 * platform admin; another tenant's caller still gets 404.
 */
let h: Harness;
let owner: Caller;
let schoolAdmin: Caller;
let plain: Caller;
let teacher: Caller;
let admin: Caller;
let other: Caller;
let invitedId: number;
let modelId: number;

beforeAll(async () => {
  h = await createHarness();
  const roles = await seedRoles(h.db);
  owner = await customer(h, { name: 'Abilities School' });
  schoolAdmin = await member(h, owner.tenant, ['Admin']);
  plain = await member(h, owner.tenant, ['User']);
  // A custom role with both listing permissions, not the Admin role: still no statistics.
  const listing = await h.db.permission.findMany({
    where: { name: { in: ['Model.listing.view', 'User.listing.view', 'Model.view'] } },
  });
  await h.db.role.create({
    data: {
      name: uniqueName('Teacher'),
      permissions: { create: listing.map((p) => ({ permissionId: p.id })) },
    },
  });
  const teacherRole = await h.db.role.findFirst({ where: { name: { startsWith: 'Teacher' } } });
  teacher = await member(h, owner.tenant, [teacherRole!.name]);
  admin = await platformAdmin(h);
  other = await customer(h, { name: 'Other School' });
  const invited = await createUser(h.db, {
    tenant: owner.tenant,
    roles: ['User'],
    isOwner: false,
    password: null,
  });
  invitedId = invited.id;
  modelId = (await h.db.model.create({ data: { name: 'Heart', urlModelName: uniqueName('heart') } })).id;
  expect(roles.user.builtIn).toBe(true);
});
afterAll(async () => {
  await h?.close();
});

const get = (caller: Caller, path: string, base = caller.base) =>
  request(h.app).get(`${base}${path}`).set(bearer(caller.token));
const post = (caller: Caller, path: string, body: object, base = caller.base) =>
  request(h.app).post(`${base}${path}`).set(bearer(caller.token)).send(body);

async function usersPage(caller: Caller) {
  const res = await get(caller, '/user/all?page=1&pageSize=50');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return new Map(TenantUserPage.parse(res.body).rows.map((row) => [row.id, row.abilities]));
}

async function sessionAbilities(caller: Caller) {
  const res = await get(caller, '/user/info');
  expect(res.status).toBe(200);
  return SessionUser.parse(res.body).abilities!;
}

describe('users list and detail: each row carries what the caller may do with it', () => {
  it('the owner: view everyone, resend to the invited, delete anyone but themselves', async () => {
    const rows = await usersPage(owner);
    expect(rows.get(invitedId)).toEqual({ view: true, resend: true, delete: true });
    expect(rows.get(plain.user.id)).toEqual({ view: true, resend: false, delete: true });
    expect(rows.get(owner.user.id)).toEqual({ view: true, resend: false, delete: false });
  });

  it('a school user with the Admin role: the same, never the owner nor themselves', async () => {
    const rows = await usersPage(schoolAdmin);
    expect(rows.get(invitedId)).toEqual({ view: true, resend: true, delete: true });
    expect(rows.get(owner.user.id)).toEqual({ view: true, resend: false, delete: false });
    expect(rows.get(schoolAdmin.user.id)).toEqual({ view: true, resend: false, delete: false });
  });

  it('a user whose role lists but may not invite, view or delete: every row says so', async () => {
    const rows = await usersPage(teacher);
    expect(rows.get(invitedId)).toEqual({ view: false, resend: false, delete: false });
  });

  it('a plain User gets no list (403), as before', async () => {
    expect((await get(plain, '/user/all?page=1')).status).toBe(403);
  });

  it('the detail carries the same abilities; another tenant gets 404', async () => {
    const res = await post(owner, '/user/detail', { id: invitedId });
    expect(UserDetailView.parse(res.body).abilities).toEqual({ view: true, resend: true, delete: true });
    const platform = await post(admin, '/user/detail', { id: invitedId }, admin.base);
    expect(UserDetailView.parse(platform.body).abilities).toEqual({
      view: true,
      resend: false,
      delete: false,
    });
    expect((await post(other, '/user/detail', { id: invitedId })).status).toBe(404);
  });

  it("the platform admin's tables: view and assign roles, never delete", async () => {
    const res = await get(admin, '/user/all?page=1&pageSize=5', admin.base);
    const page = PlatformUserPage.parse(res.body);
    expect(page.rows.length).toBeGreaterThan(0);
    for (const row of page.rows)
      expect(row.abilities).toEqual({ view: true, delete: false, assignRoles: true });
  });
});

describe('models, links and roles', () => {
  it('a model: the catalogue is the platform admin’s; a school opens and embeds', async () => {
    const abilitiesFor = async (caller: Caller) => {
      const res = await get(caller, '/model/all');
      expect(res.status).toBe(200);
      return ModelListResponse.parse(res.body).models.find((m) => m.id === modelId)!.abilities;
    };
    // lesson: the factory's plan does not sell live lessons (lessons.routes.test.ts has one that does).
    const school = { view: true, edit: false, embed: true, delete: false, lesson: false };
    expect(await abilitiesFor(owner)).toEqual(school);
    expect(await abilitiesFor(schoolAdmin)).toEqual(school);
    expect(await abilitiesFor(plain)).toEqual(school);
    expect(await abilitiesFor(admin)).toEqual({
      view: true,
      edit: true,
      embed: true,
      delete: true,
      lesson: true,
    });
  });

  it('a link: its maker and the owner may revoke it, another member does not see it; revoked: nothing', async () => {
    expect((await post(plain, '/model/embed', { id: modelId, settings: [] })).status).toBe(200);
    const linksOf = async (caller: Caller) => {
      const res = await get(caller, '/model/links?page=1&pageSize=50');
      expect(res.status).toBe(200);
      return EmbedLinkPage.parse(res.body).rows.filter((l) => l.createdBy.id === plain.user.id);
    };
    const [mine] = await linksOf(plain);
    expect(mine!.abilities).toEqual({ revoke: true, edit: true });
    expect((await linksOf(owner))[0]!.abilities).toEqual({ revoke: true, edit: true });
    expect(await linksOf(schoolAdmin)).toEqual([]);
    const revoked = await post(plain, '/model/links/revoke', { id: mine!.id });
    expect(revoked.body.abilities).toEqual({ revoke: false, edit: false });
    expect((await post(other, '/model/links/revoke', { id: mine!.id })).status).toBe(404);
  });

  it('a role: a platform admin edits every one and deletes all but the built-in ones', async () => {
    const res = await get(admin, '/role/all', admin.base);
    const roles = RoleView.array().parse(res.body);
    for (const role of roles) {
      expect(role.abilities).toEqual({ edit: true, delete: !role.builtIn });
    }
    expect(roles.some((r) => r.builtIn) && roles.some((r) => !r.builtIn)).toBe(true);
  });
});

describe('statistics are an admin’s (administration-content 2)', () => {
  it('the session says so: owner, Admin role and platform admin yes; a plain User and a custom role no', async () => {
    expect((await sessionAbilities(owner)).stats).toBe(true);
    expect((await sessionAbilities(schoolAdmin)).stats).toBe(true);
    expect((await sessionAbilities(admin)).stats).toBe(true);
    expect(await sessionAbilities(plain)).toMatchObject({ stats: false, home: true, links: true });
    expect(await sessionAbilities(teacher)).toMatchObject({ stats: false, tenantUsers: true });
  });

  it('the statistics calls refuse a plain User and a custom role (403), and answer the owner', async () => {
    for (const caller of [plain, teacher]) {
      expect((await get(caller, '/model/all?stats=true')).status).toBe(403);
      expect((await get(caller, '/views/export')).status).toBe(403);
    }
    expect((await get(teacher, '/stats/users')).status).toBe(403);
    // The grid itself stays theirs.
    expect((await get(plain, '/model/all')).status).toBe(200);
    expect((await get(owner, '/model/all?stats=true')).status).toBe(200);
    expect((await get(owner, '/stats/users')).status).toBe(200);
    expect((await get(schoolAdmin, '/stats/users')).status).toBe(200);
  });
});
