import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER } from '@helix/shared/schemas/outbox';
import {
  CUSTOMER_PLAN_PERMISSIONS,
  createPlan,
  createUser,
  seedRoles,
  uniqueName,
} from '@helix/server/testing/factories';
import {
  bearer,
  createModel,
  createModelHarness,
  customer,
  platformAdmin,
  type Caller,
  type ModelHarness,
} from '../../test/models.ts';

/**
 * Every outbox call (issue 8 §2): the Idempotency-Key rule (same key: the stored answer, done once;
 * same key with another request: 422; a key still running: 409 retry later) and, for edits of a
 * versioned record, If-Match (another version: 409 VERSION_CONFLICT with the record now).
 */

let h: ModelHarness;
let admin: Caller;
let owner: Caller;

beforeAll(async () => {
  h = await createModelHarness();
  await seedRoles(h.db);
  admin = await platformAdmin(h);
  owner = await customer(h, {
    plan: await createPlan(h.db, {
      customBranding: true,
      modelEmbed: true,
      viewLimit: 1000,
      permissions: CUSTOMER_PLAN_PERMISSIONS,
    }),
  });
  await h.db.tenantSubscription.update({ where: { tenantId: owner.tenant.id }, data: { userLimit: 1000 } });
});
afterAll(async () => {
  await h?.close();
});

function send(caller: Caller, path: string, body: object, headers: Record<string, string> = {}) {
  return request(h.app).post(`${caller.base}${path}`).set(bearer(caller.token)).set(headers).send(body);
}

interface Edit {
  caller: Caller;
  path: string;
  body: object;
  /** How many times the edit's effect shows in the database (1 after it ran once). */
  effect: () => Promise<number>;
}

interface OutboxCall {
  name: string;
  /** A fresh edit (its own record where it needs one); `n` makes each one different. */
  edit: (n: number) => Promise<Edit>;
  /** For a versioned record: its version now, and a change made meanwhile by someone else. */
  versioned?: {
    field: 'version' | 'rolesVersion';
    read: (edit: Edit) => Promise<number>;
    bump: (edit: Edit) => Promise<void>;
  };
}

const newRole = () => h.db.role.create({ data: { name: uniqueName('Role ') } });
const roleVersion = async (id: number) => (await h.db.role.findUniqueOrThrow({ where: { id } })).version;

const CALLS: OutboxCall[] = [
  {
    name: 'model details (POST /model/update)',
    edit: async (n) => {
      const model = await createModel(h);
      const name = `Renamed ${n} ${model.id}`;
      return {
        caller: admin,
        path: '/model/update',
        body: {
          id: model.id,
          name,
          urlModelName: model.urlModelName,
          isPublic: false,
          restrictedTenants: [],
        },
        effect: async () =>
          (await h.db.model.findUniqueOrThrow({ where: { id: model.id } })).version - model.version,
      };
    },
    versioned: {
      field: 'version',
      read: async (e) => (await h.db.model.findUniqueOrThrow({ where: { id: id(e) } })).version,
      bump: async (e) => {
        await h.db.model.update({ where: { id: id(e) }, data: { version: { increment: 1 } } });
      },
    },
  },
  {
    name: 'role create (POST /role/create, id 0)',
    edit: async (n) => {
      const name = uniqueName(`New role ${n} `);
      return {
        caller: admin,
        path: '/role/create',
        body: { id: 0, name, permissions: [] },
        effect: () => h.db.role.count({ where: { name } }),
      };
    },
  },
  {
    name: 'role edit (POST /role/create, id > 0)',
    edit: async (n) => {
      const role = await newRole();
      return {
        caller: admin,
        path: '/role/create',
        body: { id: role.id, name: uniqueName(`Edited ${n} `), permissions: [] },
        effect: async () => (await roleVersion(role.id)) - role.version,
      };
    },
    versioned: {
      field: 'version',
      read: (e) => roleVersion(id(e)),
      bump: async (e) => {
        await h.db.role.update({ where: { id: id(e) }, data: { version: { increment: 1 } } });
      },
    },
  },
  {
    name: 'role delete (POST /role/delete)',
    edit: async () => {
      const role = await newRole();
      return {
        caller: admin,
        path: '/role/delete',
        body: { id: role.id },
        effect: async () => 1 - (await h.db.role.count({ where: { id: role.id } })),
      };
    },
    versioned: {
      field: 'version',
      read: (e) => roleVersion(id(e)),
      bump: async (e) => {
        await h.db.role.update({ where: { id: id(e) }, data: { version: { increment: 1 } } });
      },
    },
  },
  {
    name: 'role assignment (POST /user/assignRoles)',
    edit: async () => {
      const user = await createUser(h.db, { tenant: owner.tenant, roles: ['User'], isOwner: false });
      const admin_ = await h.db.role.findUniqueOrThrow({ where: { name: 'Admin' } });
      return {
        caller: admin,
        path: '/user/assignRoles',
        body: { id: user.id, roles: [admin_.id] },
        effect: async () =>
          (await h.db.user.findUniqueOrThrow({ where: { id: user.id } })).rolesVersion - user.rolesVersion,
      };
    },
    versioned: {
      field: 'rolesVersion',
      read: async (e) => (await h.db.user.findUniqueOrThrow({ where: { id: id(e) } })).rolesVersion,
      bump: async (e) => {
        await h.db.user.update({ where: { id: id(e) }, data: { rolesVersion: { increment: 1 } } });
      },
    },
  },
  {
    name: 'single invite (POST /user/invite)',
    edit: async (n) => {
      const email = `${uniqueName(`invited${n}`)}@example.test`;
      return {
        caller: owner,
        path: '/user/invite',
        body: { name: `Invited ${n}`, email },
        effect: () => h.db.user.count({ where: { email } }),
      };
    },
  },
  {
    name: 'branding colours and brand name (POST /tenant/update)',
    edit: async (n) => {
      const before = await h.db.branding.findUniqueOrThrow({ where: { tenantId: owner.tenant.id } });
      return {
        caller: owner,
        path: '/tenant/update',
        body: {
          customBrandName: uniqueName(`brand${n}-`)
            .toLowerCase()
            .replace(/[^a-z0-9]/g, ''),
          primaryColor: `#${(0x100000 + n * 7919).toString(16).slice(-6)}`,
          textColor: '#000000',
        },
        effect: async () =>
          (await h.db.branding.findUniqueOrThrow({ where: { tenantId: owner.tenant.id } })).version -
          before.version,
      };
    },
    versioned: {
      field: 'version',
      read: async () =>
        (await h.db.branding.findUniqueOrThrow({ where: { tenantId: owner.tenant.id } })).version,
      bump: async () => {
        await h.db.branding.update({
          where: { tenantId: owner.tenant.id },
          data: { version: { increment: 1 } },
        });
      },
    },
  },
  {
    name: 'profile name (POST /user/edit)',
    edit: async (n) => {
      const before = await h.db.user.findUniqueOrThrow({ where: { id: owner.user.id } });
      return {
        caller: owner,
        path: '/user/edit',
        body: { name: `Owner ${n} ${randomUUID().slice(0, 6)}` },
        effect: async () =>
          (await h.db.user.findUniqueOrThrow({ where: { id: owner.user.id } })).version - before.version,
      };
    },
    versioned: {
      field: 'version',
      read: async () => (await h.db.user.findUniqueOrThrow({ where: { id: owner.user.id } })).version,
      bump: async () => {
        await h.db.user.update({ where: { id: owner.user.id }, data: { version: { increment: 1 } } });
      },
    },
  },
];

/** The record id of a versioned edit (its body's id; branding and profile have none). */
const id = (e: Edit) => (e.body as { id: number }).id;

let counter = 0;

describe.each(CALLS)('$name', (call) => {
  it('the same Idempotency-Key answers the stored answer and acts once; another request with it is 422', async () => {
    const e = await call.edit((counter += 1));
    const key = randomUUID();
    const first = await send(e.caller, e.path, e.body, { [IDEMPOTENCY_HEADER]: key });
    expect(first.status, JSON.stringify(first.body)).toBeLessThan(300);
    expect(first.headers[REPLAYED_HEADER.toLowerCase()]).toBeUndefined();
    expect(await e.effect()).toBe(1);

    const again = await send(e.caller, e.path, e.body, { [IDEMPOTENCY_HEADER]: key });
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    expect(again.headers[REPLAYED_HEADER.toLowerCase()]).toBe('true');
    expect(await e.effect()).toBe(1);

    const other = await send(
      e.caller,
      e.path,
      { ...e.body, name: 'Something else' },
      { [IDEMPOTENCY_HEADER]: key },
    );
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({
      code: ERROR_CODES.idempotencyKeyReused,
      message: MSG.idempotencyKeyReused,
    });
    expect(await e.effect()).toBe(1);
  });

  it('a request dropped after the server acted, then retried, is answered from the store', async () => {
    const e = await call.edit((counter += 1));
    const key = randomUUID();
    await dropAfterActing(e, key);
    expect(await e.effect()).toBe(1);
    const retry = await send(e.caller, e.path, e.body, { [IDEMPOTENCY_HEADER]: key });
    expect(retry.status).toBeLessThan(300);
    expect(retry.headers[REPLAYED_HEADER.toLowerCase()]).toBe('true');
    expect(await e.effect()).toBe(1);
  });

  it.runIf(call.versioned)(
    'If-Match: another version is 409 VERSION_CONFLICT with the record now',
    async () => {
      const v = call.versioned!;
      const e = await call.edit((counter += 1));
      const based = await v.read(e);
      await v.bump(e);
      const now = await v.read(e);
      const stale = await send(e.caller, e.path, e.body, {
        'If-Match': String(based),
        [IDEMPOTENCY_HEADER]: randomUUID(),
      });
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({
        statusCode: 409,
        error: 'Conflict',
        code: ERROR_CODES.versionConflict,
      });
      expect(typeof stale.body.message).toBe('string');
      expect(stale.body.current[v.field]).toBe(now);
      expect(await v.read(e)).toBe(now);

      // Retried on the current version (a new key: it is a new request), it goes through.
      const retried = await send(e.caller, e.path, e.body, {
        'If-Match': String(now),
        [IDEMPOTENCY_HEADER]: randomUUID(),
      });
      expect(retried.status, JSON.stringify(retried.body)).toBeLessThan(300);
      if (call.name.startsWith('role delete')) {
        expect(await h.db.role.count({ where: { id: id(e) } })).toBe(0);
      } else {
        expect(await v.read(e)).toBe(now + 1);
      }
    },
  );
});

/**
 * Sends the edit over a real socket, waits until the database shows it was done, then closes the
 * connection without reading the answer: the client never learns the outcome.
 */
async function dropAfterActing(e: Edit, key: string): Promise<void> {
  const server = h.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const body = JSON.stringify(e.body);
    const req = httpRequest({
      host: '127.0.0.1',
      port: (server.address() as AddressInfo).port,
      method: 'POST',
      path: `${e.caller.base}${e.path}`,
      headers: {
        ...bearer(e.caller.token),
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        [IDEMPOTENCY_HEADER]: key,
      },
    });
    req.on('error', () => undefined);
    req.on('response', (res) => res.destroy());
    req.end(body);
    await expect.poll(e.effect, { timeout: 10_000, interval: 25 }).toBe(1);
    req.destroy();
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('the Idempotency-Key store', () => {
  const edit = () =>
    ({
      caller: admin,
      path: '/role/create',
      body: { id: 0, name: uniqueName('Keyed '), permissions: [] },
    }) as const;

  it('keys are per user: another user with the same key acts for themselves', async () => {
    const other = await platformAdmin(h);
    const key = randomUUID();
    const a = edit();
    expect((await send(admin, a.path, a.body, { [IDEMPOTENCY_HEADER]: key })).status).toBe(201);
    const b = await send(
      other,
      a.path,
      { ...a.body, name: uniqueName('Other ') },
      { [IDEMPOTENCY_HEADER]: key },
    );
    expect(b.status).toBe(201);
    expect(b.headers[REPLAYED_HEADER.toLowerCase()]).toBeUndefined();
  });

  it('a key whose first request is still running answers 409 IDEMPOTENCY_IN_PROGRESS; a stale one runs again', async () => {
    const key = randomUUID();
    const a = edit();
    expect((await send(admin, a.path, a.body, { [IDEMPOTENCY_HEADER]: key })).status).toBe(201);
    await h.db.idempotencyKey.update({
      where: { userId_key: { userId: admin.user.id, key } },
      data: { state: 'running', responseStatus: null },
    });
    const busy = await send(admin, a.path, a.body, { [IDEMPOTENCY_HEADER]: key });
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe(ERROR_CODES.idempotencyInProgress);
    // The process that ran it died: after a while the key is taken over (the role exists: 409 name taken).
    await h.db.idempotencyKey.update({
      where: { userId_key: { userId: admin.user.id, key } },
      data: { createdAt: new Date(Date.now() - 5 * 60_000) },
    });
    const rerun = await send(admin, a.path, a.body, { [IDEMPOTENCY_HEADER]: key });
    expect(rerun.status).toBe(409);
    expect(rerun.body.code).toBe(ERROR_CODES.conflict);
  });

  it('refusals (4xx) are stored too; keys expire after 30 days', async () => {
    const key = randomUUID();
    const bad = await send(admin, '/role/create', { id: 0, name: '' }, { [IDEMPOTENCY_HEADER]: key });
    expect(bad.status).toBe(400);
    const again = await send(admin, '/role/create', { id: 0, name: '' }, { [IDEMPOTENCY_HEADER]: key });
    expect(again.headers[REPLAYED_HEADER.toLowerCase()]).toBe('true');
    expect(again.body).toEqual(bad.body);
    await h.db.idempotencyKey.update({
      where: { userId_key: { userId: admin.user.id, key } },
      data: { createdAt: new Date(Date.now() - 31 * 24 * 3600_000) },
    });
    const fresh = await send(admin, '/role/create', { id: 0, name: '' }, { [IDEMPOTENCY_HEADER]: key });
    expect(fresh.headers[REPLAYED_HEADER.toLowerCase()]).toBeUndefined();
  });

  it('identical requests at once act once: the others wait for the first to commit and replay its answer', async () => {
    const key = randomUUID();
    const a = edit();
    const answers = await Promise.all(
      [1, 2, 3].map(() => send(admin, a.path, a.body, { [IDEMPOTENCY_HEADER]: key })),
    );
    for (const res of answers) expect(res.status, JSON.stringify(res.body)).toBe(201);
    const fresh = answers.filter((res) => res.headers[REPLAYED_HEADER.toLowerCase()] === undefined);
    expect(fresh).toHaveLength(1);
    for (const res of answers) expect(res.body).toEqual(fresh[0]!.body);
    expect(await h.db.role.count({ where: { name: a.body.name } })).toBe(1);
  });

  it('refuses a malformed key and a malformed If-Match with 400 and a code', async () => {
    const a = edit();
    const badKey = await send(admin, a.path, a.body, { [IDEMPOTENCY_HEADER]: 'short' });
    expect(badKey.status).toBe(400);
    expect(badKey.body.code).toBe(ERROR_CODES.idempotencyKeyInvalid);
    const role = await newRole();
    const badMatch = await send(admin, '/role/delete', { id: role.id }, { 'If-Match': 'abc' });
    expect(badMatch.status).toBe(400);
    expect(badMatch.body.code).toBe(ERROR_CODES.ifMatchInvalid);
    // Quoted and weak forms are read too.
    const quoted = await send(admin, '/role/delete', { id: role.id }, { 'If-Match': `W/"${role.version}"` });
    expect(quoted.status).toBe(200);
  });

  it('without If-Match an edit behaves as before and still increments the version', async () => {
    const role = await newRole();
    const res = await send(admin, '/role/create', {
      id: role.id,
      name: uniqueName('Plain '),
      permissions: [],
    });
    expect(res.status).toBe(200);
    expect(res.body.role.version).toBe(role.version + 1);
  });
});
