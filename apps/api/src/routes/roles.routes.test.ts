import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { createTenant, createUser } from '@helix/server/testing/factories';
import { createHarness, type Harness } from '../../test/harness.ts';
import { bearer, customer, member, platformAdmin, sessionFor, type Caller } from '../../test/models.ts';
import { seedRoles } from '@helix/server/testing/factories';

let h: Harness;
let admin: Caller;
let owner: Caller;
let plainUser: Caller;
let otherOwner: Caller;

beforeAll(async () => {
  h = await createHarness();
  await seedRoles(h.db);
  admin = await platformAdmin(h);
  owner = await customer(h);
  plainUser = await member(h, owner.tenant, ['User']);
  otherOwner = await customer(h);
});
afterAll(async () => {
  await h?.close();
});

const get = (caller: Caller, path: string) =>
  request(h.app).get(`${caller.base}${path}`).set(bearer(caller.token));
const post = (caller: Caller, path: string, body: object) =>
  request(h.app).post(`${caller.base}${path}`).set(bearer(caller.token)).send(body);

const permissionIds = async (...names: string[]) =>
  (await h.db.permission.findMany({ where: { name: { in: names } }, orderBy: { id: 'asc' } })).map(
    (p) => p.id,
  );

let n = 0;
const roleName = () => `Editor ${Date.now()}-${(n += 1)}`;

describe('who may call the role routes', () => {
  const calls: [string, 'get' | 'post', object][] = [
    ['/role/all', 'get', {}],
    ['/permission/all', 'get', {}],
    ['/role/create', 'post', { id: 0, name: 'Nope', permissions: [] }],
    ['/role/delete', 'post', { id: 1 }],
    ['/role/permissions', 'post', { id: 1 }],
    ['/user/assignRoles', 'post', { id: 1, roles: [1] }],
  ];

  it.each(calls)('%s: owner and user 403, another tenant 404, no session 401', async (path, method, body) => {
    for (const caller of [owner, plainUser]) {
      const res = method === 'get' ? await get(caller, path) : await post(caller, path, body);
      expect(res.status, `${caller.user.userName} ${path}`).toBe(403);
    }
    // A customer addressing the platform tenant's path: the same 404 as a missing tenant.
    const cross =
      method === 'get'
        ? await request(h.app).get(`${admin.base}${path}`).set(bearer(otherOwner.token))
        : await request(h.app).post(`${admin.base}${path}`).set(bearer(otherOwner.token)).send(body);
    expect(cross.status).toBe(404);
    const anonymous =
      method === 'get'
        ? await request(h.app).get(`${admin.base}${path}`)
        : await request(h.app).post(`${admin.base}${path}`).send(body);
    expect(anonymous.status).toBe(401);
  });

  it('a platform admin without the permission gets 403', async () => {
    const user = await createUser(h.db, {
      tenant: admin.tenant,
      isAdmin: true,
      isOwner: false,
      roles: ['User'],
    });
    const weak: Caller = { ...admin, user, token: await sessionFor(h, user) };
    expect((await get(weak, '/role/all')).status).toBe(403);
    expect((await post(weak, '/role/create', { name: roleName(), permissions: [] })).status).toBe(403);
  });
});

describe('roles', () => {
  it('lists roles with their permissions and the permission vocabulary', async () => {
    const roles = await get(admin, '/role/all');
    expect(roles.status).toBe(200);
    const names = roles.body.map((r: { name: string }) => r.name);
    expect(names).toEqual(expect.arrayContaining(['Admin', 'User']));
    const user = roles.body.find((r: { name: string }) => r.name === 'User');
    expect(user.builtIn).toBe(true);
    expect(user.permissions.map((p: { name: string }) => p.name)).toContain('Model.view');
    const permissions = await get(admin, '/permission/all');
    expect(permissions.status).toBe(200);
    expect(permissions.body).toHaveLength(27); // the spec's 26 and Lesson.lead
  });

  it('creates a role, answers its permissions and the unassigned ones, refuses a duplicate name', async () => {
    const name = roleName();
    const ids = await permissionIds('Model.view', 'Model.listing.view');
    const created = await post(admin, '/role/create', { id: 0, name, permissions: ids });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe(MSG.roleCreated);
    expect(created.body.role.permissions.map((p: { id: number }) => p.id)).toEqual(ids);

    const view = await post(admin, '/role/permissions', { id: created.body.role.id });
    expect(view.status).toBe(200);
    expect(view.body.permissions.map((p: { id: number }) => p.id)).toEqual(ids);
    expect(view.body.unAssignedPersmission).toHaveLength(25);

    const dup = await post(admin, '/role/create', { id: 0, name: name.toUpperCase(), permissions: [] });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(MSG.roleNameTaken);
    expect(dup.body.errors.name).toBe(MSG.roleNameTaken);
  });

  it('validates the name and unknown permission ids', async () => {
    const empty = await post(admin, '/role/create', { id: 0, name: '  ', permissions: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.name).toBe(MSG.roleNameRequired);
    const unknown = await post(admin, '/role/create', { id: 0, name: roleName(), permissions: [999999] });
    expect(unknown.status).toBe(400);
    expect((await post(admin, '/role/permissions', { id: 999999 })).status).toBe(404);
    expect((await post(admin, '/role/permissions', { id: 'x' })).status).toBe(400);
  });

  it('updates a role; an unchanged edit is refused with No change in Data!', async () => {
    const name = roleName();
    const [a, b] = await permissionIds('Model.view', 'Profile.view');
    const created = await post(admin, '/role/create', { id: 0, name, permissions: [a] });
    const id = created.body.role.id as number;
    const same = await post(admin, '/role/create', { id, name, permissions: [a] });
    expect(same.status).toBe(400);
    expect(same.body.message).toBe(MSG.noChange);
    const changed = await post(admin, '/role/create', { id, name: `${name} x`, permissions: [a, b] });
    expect(changed.status).toBe(200);
    expect(changed.body.message).toBe(MSG.roleUpdated);
    expect(changed.body.role.name).toBe(`${name} x`);
    expect(changed.body.role.permissions).toHaveLength(2);
    expect(
      (await post(admin, '/role/create', { id: 999999, name: roleName(), permissions: [] })).status,
    ).toBe(404);
  });

  it('keeps the built-in roles: not deleted, renamed or emptied; Admin keeps role management', async () => {
    const roles = (await get(admin, '/role/all')).body as {
      id: number;
      name: string;
      permissions: { id: number }[];
    }[];
    const userRole = roles.find((r) => r.name === 'User')!;
    const adminRole = roles.find((r) => r.name === 'Admin')!;
    const del = await post(admin, '/role/delete', { id: userRole.id, name: 'User' });
    expect(del.status).toBe(403);
    expect(del.body.message).toBe(MSG.builtInRoleLocked);
    const emptied = await post(admin, '/role/create', { id: userRole.id, name: 'User', permissions: [] });
    expect(emptied.status).toBe(400);
    expect(emptied.body.errors.permissions).toBe(MSG.rolePermissionsRequired);
    const renamed = await post(admin, '/role/create', {
      id: userRole.id,
      name: 'Users',
      permissions: userRole.permissions.map((p) => p.id),
    });
    expect(renamed.status).toBe(403);
    const [modelView] = await permissionIds('Model.view');
    const locked = await post(admin, '/role/create', {
      id: adminRole.id,
      name: 'Admin',
      permissions: [modelView],
    });
    expect(locked.status).toBe(400);
    expect(locked.body.errors.permissions).toBe(MSG.adminRoleKeepsRoleAccess);
    expect(await h.db.role.count({ where: { builtIn: true } })).toBe(2);
  });

  it('deletes a custom role; its holders lose it', async () => {
    const created = await post(admin, '/role/create', { id: 0, name: roleName(), permissions: [] });
    const id = created.body.role.id as number;
    const holder = await member(h, owner.tenant, ['User']);
    await h.db.userRole.create({ data: { userId: holder.user.id, roleId: id } });
    const del = await post(admin, '/role/delete', { id, name: created.body.role.name });
    expect(del.status).toBe(200);
    expect(del.body.message).toBe(MSG.roleDeleted);
    expect(await h.db.userRole.count({ where: { userId: holder.user.id } })).toBe(1);
    expect((await post(admin, '/role/delete', { id })).status).toBe(404);
  });
});

describe('assign roles', () => {
  it("sets a user's roles (several) and the change applies to the user's next request", async () => {
    const tenant = owner.tenant;
    const colleague = await member(h, tenant, ['User']);
    const before = await get(colleague, '/user/info');
    expect(before.body.permissions).not.toContain('User.listing.view');
    expect((await get(colleague, '/user/all')).status).not.toBe(200);

    const ids = await permissionIds('User.listing.view', 'User.detail.view');
    const role = await post(admin, '/role/create', { id: 0, name: roleName(), permissions: ids });
    const userRole = await h.db.role.findUniqueOrThrow({ where: { name: 'User' } });
    const assigned = await post(admin, '/user/assignRoles', {
      id: colleague.user.id,
      roles: [userRole.id, role.body.role.id],
    });
    expect(assigned.status).toBe(200);
    expect(assigned.body.roles.map((r: { id: number }) => r.id).sort()).toEqual(
      [userRole.id, role.body.role.id].sort(),
    );

    // Same session, no new login: the next request has the new permissions (within the plan's).
    const after = await get(colleague, '/user/info');
    expect(after.body.permissions).toEqual(expect.arrayContaining(['User.listing.view', 'User.detail.view']));
    expect(after.body.roles).toHaveLength(2);

    // And back: removing the role removes the permission at once.
    await post(admin, '/user/assignRoles', { id: colleague.user.id, roles: [userRole.id] });
    expect((await get(colleague, '/user/info')).body.permissions).not.toContain('User.listing.view');
  });

  it('refuses unknown users and roles, an empty list, and taking Admin from oneself', async () => {
    const userRole = await h.db.role.findUniqueOrThrow({ where: { name: 'User' } });
    expect((await post(admin, '/user/assignRoles', { id: 999999, roles: [userRole.id] })).status).toBe(404);
    const deleted = await createUser(h.db, {
      tenant: await createTenant(h.db),
      deletedAt: new Date(),
    });
    expect((await post(admin, '/user/assignRoles', { id: deleted.id, roles: [userRole.id] })).status).toBe(
      404,
    );
    const unknown = await post(admin, '/user/assignRoles', { id: plainUser.user.id, roles: [999999] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.roles).toBe(MSG.unknownRoles);
    const none = await post(admin, '/user/assignRoles', { id: plainUser.user.id, roles: [] });
    expect(none.status).toBe(400);
    expect(none.body.errors.roles).toBe(MSG.rolesRequired);
    const self = await post(admin, '/user/assignRoles', { id: admin.user.id, roles: [userRole.id] });
    expect(self.status).toBe(400);
    expect(self.body.errors.roles).toBe(MSG.ownAdminRoleKept);
  });
});
