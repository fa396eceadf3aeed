import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, seed } from '../../../prisma/seed.ts';
import { verifyPassword } from '@helix/server/auth/password';
import { createTestDatabase, dropDatabase } from '@helix/server/testing/test-db';

async function counts(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const one = async (sql: string) => Number((await client.query<{ n: string }>(sql)).rows[0]!.n);
    return {
      permissions: await one('SELECT count(*) AS n FROM "Permission"'),
      roles: await one('SELECT count(*) AS n FROM "Role"'),
      rolePermissions: await one('SELECT count(*) AS n FROM "RolePermission"'),
      plans: await one('SELECT count(*) AS n FROM "Plan"'),
      planPermissions: await one('SELECT count(*) AS n FROM "PlanPermission"'),
      tenants: await one('SELECT count(*) AS n FROM "Tenant"'),
      subscriptions: await one('SELECT count(*) AS n FROM "TenantSubscription"'),
      brandings: await one('SELECT count(*) AS n FROM "Branding"'),
      users: await one('SELECT count(*) AS n FROM "User"'),
      userRoles: await one('SELECT count(*) AS n FROM "UserRole"'),
    };
  } finally {
    await client.end();
  }
}

async function query<T extends pg.QueryResultRow>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe('prisma/seed.ts', () => {
  let db: { name: string; url: string };
  beforeAll(async () => {
    db = await createTestDatabase('helix_seed');
  });
  afterAll(async () => {
    if (db) await dropDatabase(db.name);
  });

  it('creates the reference and demo data once; a second run changes nothing', async () => {
    expect(await seed(db.url)).toMatch(/^created /);
    const first = await counts(db.url);
    expect(first).toMatchObject({
      permissions: 27, // the spec's 26 and Lesson.lead
      roles: 2,
      rolePermissions: 27 + 5,
      plans: 6,
      tenants: 2,
      users: 3,
    });
    expect(first).toMatchObject({ subscriptions: 1, brandings: 1, userRoles: 3 });
    const plans = await query<{ id: number }>(db.url, 'SELECT id FROM "Plan" ORDER BY id');
    expect(plans.map((p) => p.id)).toEqual([7, 8, 9, 10, 13, 14]);

    expect(await seed(db.url)).toBe('nothing to add');
    expect(await counts(db.url)).toEqual(first);
  }, 600_000);

  it('seeds the documented demo accounts and keeps a changed password', async () => {
    await seed(db.url);
    for (const account of DEMO_ACCOUNTS) {
      const [user] = await query<{
        passwordHash: string;
        domainPrefix: string;
        isAdmin: boolean;
        isOwner: boolean;
        role: string;
      }>(
        db.url,
        `SELECT u."passwordHash", t."domainPrefix", u."isAdmin", u."isOwner", r.name AS role
           FROM "User" u JOIN "Tenant" t ON t.id = u."tenantId"
           JOIN "UserRole" ur ON ur."userId" = u.id JOIN "Role" r ON r.id = ur."roleId"
          WHERE u.email = $1`,
        [account.email],
      );
      expect(user, account.email).toMatchObject({
        domainPrefix: account.tenant,
        isAdmin: account.isAdmin,
        isOwner: account.isOwner,
        role: account.role,
      });
      expect(await verifyPassword(user!.passwordHash, account.password)).toBe(true);
    }
    const [sub] = await query<{ planId: number; status: string; activePayment: boolean; userLimit: number }>(
      db.url,
      `SELECT s."planId", s.status, s."activePayment", s."userLimit" FROM "TenantSubscription" s
         JOIN "Tenant" t ON t.id = s."tenantId" WHERE t."domainPrefix" = 'demo'`,
    );
    expect(sub).toEqual({ planId: 8, status: 'active', activePayment: true, userLimit: 10 });
    const [uma] = await query<{ owner: string }>(
      db.url,
      `SELECT p.email AS owner FROM "User" u JOIN "User" p ON p.id = u."parentId" WHERE u.email = 'user@demo.helix.local'`,
    );
    expect(uma?.owner).toBe('owner@demo.helix.local');

    await query(db.url, `UPDATE "User" SET "passwordHash" = 'changed' WHERE email = 'user@demo.helix.local'`);
    await seed(db.url);
    const [after] = await query<{ passwordHash: string }>(
      db.url,
      `SELECT "passwordHash" FROM "User" WHERE email = 'user@demo.helix.local'`,
    );
    expect(after?.passwordHash).toBe('changed');
  }, 600_000);

  it('without the demo data: reference data and the platform tenant only', async () => {
    const other = await createTestDatabase('helix_seed3');
    try {
      await seed(other.url, { demo: false });
      expect(await counts(other.url)).toMatchObject({
        permissions: 27, // the spec's 26 and Lesson.lead
        roles: 2,
        plans: 6,
        tenants: 1,
        users: 0,
      });
    } finally {
      await dropDatabase(other.name);
    }
  }, 600_000);

  it('two seeds at once do not collide', async () => {
    const other = await createTestDatabase('helix_seed2');
    try {
      await Promise.all([seed(other.url), seed(other.url)]);
      expect(await counts(other.url)).toMatchObject({
        permissions: 27, // the spec's 26 and Lesson.lead
        roles: 2,
        plans: 6,
        tenants: 2,
        users: 3,
      });
    } finally {
      await dropDatabase(other.name);
    }
  }, 600_000);
});
