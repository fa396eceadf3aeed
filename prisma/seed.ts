/**
 * The idempotent seed: the 27 permissions (the spec's 26 and Lesson.lead), the built-in roles Admin and User, the plan catalogue, the
 * platform tenant `services` with its admin, and the demo tenant `demo` with its owner and one user.
 *
 * It only creates what is missing and never changes a row that exists, so `npm start` can run it every
 * time without undoing edits made in the portal (changed passwords, edited roles or plans). To pick up
 * changes to the data here on an existing database, reset the database.
 *
 *   npm run db:seed                 (seeds DATABASE_URL: packages/stack/src/db-seed.ts)
 *   npm run db:seed -- --no-demo    (without the demo tenant and the demo logins, e.g. in production)
 */
import { hashPassword } from '@helix/server/auth/password';
import { createDb, type Prisma } from '@helix/server/db';
import { withTransaction } from '@helix/server/db/transaction';
import { ADMIN_ROLE_PERMISSIONS, BUILT_IN_ROLES, PERMISSIONS, USER_ROLE_PERMISSIONS } from '@helix/shared';
import {
  DEMO_ACCOUNTS,
  DEMO_SUBSCRIPTION,
  DEMO_TENANT,
  PLATFORM_TENANT,
  type DemoAccount,
} from './seed/demo-accounts.ts';
import { PLANS } from './seed/plans.ts';

export { DEMO_ACCOUNTS, DEMO_TENANT, PLATFORM_TENANT } from './seed/demo-accounts.ts';
export { PLANS } from './seed/plans.ts';

/** Concurrent seeds of one database (two test files, two starts) wait for each other. */
const SEED_LOCK = 72_707_370;

type Tx = Prisma.TransactionClient;

export interface SeedOptions {
  /** Also the demo accounts and the demo tenant (default true). Without them: permissions, roles, plans, platform tenant. */
  demo?: boolean;
}

/** Seeds the database at `databaseUrl`; returns a one-line summary of what it created. */
export async function seed(databaseUrl: string, options: SeedOptions = {}): Promise<string> {
  const db = createDb(databaseUrl);
  try {
    const created = await withTransaction(
      db,
      async (tx) => {
        await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(${SEED_LOCK})`;
        return seedWith(tx, options.demo ?? true);
      },
      { maxWaitMs: 60_000, timeoutMs: 120_000 },
    );
    return created.length ? `created ${created.join(', ')}` : 'nothing to add';
  } finally {
    await db.$disconnect();
  }
}

async function seedWith(tx: Tx, demo: boolean): Promise<string[]> {
  const created: string[] = [];
  const count = (what: string, n: number) => n && created.push(`${n} ${what}`);

  // Permissions
  const permissions = await tx.permission.createMany({
    data: PERMISSIONS.map((name) => ({ name })),
    skipDuplicates: true,
  });
  count('permissions', permissions.count);
  const permissionId = new Map((await tx.permission.findMany()).map((p) => [p.name, p.id]));
  const links = (names: readonly string[]) =>
    names.map((name) => ({ permissionId: permissionId.get(name)! }));

  // Built-in roles: permissions are set when the role is created, then left to the platform admins.
  const roleId = new Map<string, number>();
  for (const [name, names] of [
    [BUILT_IN_ROLES.admin, ADMIN_ROLE_PERMISSIONS],
    [BUILT_IN_ROLES.user, USER_ROLE_PERMISSIONS],
  ] as const) {
    let role = await tx.role.findUnique({ where: { name } });
    if (!role) {
      role = await tx.role.create({ data: { name, builtIn: true, permissions: { create: links(names) } } });
      created.push(`role ${name}`);
    }
    roleId.set(name, role.id);
  }

  // Plan catalogue
  let plans = 0;
  for (const { permissions: names, ...plan } of PLANS) {
    if (await tx.plan.findUnique({ where: { id: plan.id } })) continue;
    await tx.plan.create({ data: { ...plan, permissions: { create: links(names) } } });
    plans++;
  }
  count('plans', plans);

  // Tenants
  const tenantId = new Map<string, number>();
  for (const tenant of demo ? [PLATFORM_TENANT, DEMO_TENANT] : [PLATFORM_TENANT]) {
    let row = await tx.tenant.findUnique({ where: { domainPrefix: tenant.domainPrefix } });
    if (!row) {
      row = await tx.tenant.create({ data: { ...tenant } });
      created.push(`tenant ${tenant.domainPrefix}`);
    }
    tenantId.set(tenant.domainPrefix, row.id);
  }
  if (!demo) return created;
  const demoId = tenantId.get(DEMO_TENANT.domainPrefix)!;
  if (!(await tx.tenantSubscription.findUnique({ where: { tenantId: demoId } }))) {
    const now = new Date();
    const end = new Date(now);
    end.setMonth(end.getMonth() + 1);
    await tx.tenantSubscription.create({
      data: {
        tenantId: demoId,
        planId: DEMO_SUBSCRIPTION.planId,
        status: 'active',
        activePayment: true,
        currentPeriodStart: now,
        currentPeriodEnd: end,
        userLimit: DEMO_SUBSCRIPTION.userLimit,
      },
    });
    created.push('demo subscription');
  }
  if (!(await tx.branding.findUnique({ where: { tenantId: demoId } }))) {
    await tx.branding.create({ data: { tenantId: demoId } });
    created.push('demo branding');
  }

  // Users: looked up by e-mail or user name, so an account whose e-mail was changed is not created twice.
  const userId = new Map<DemoAccount['key'], number>();
  let users = 0;
  for (const account of DEMO_ACCOUNTS) {
    const email = account.email.toLowerCase();
    const existing = await tx.user.findFirst({
      where: { OR: [{ email }, { userName: account.userName }] },
      select: { id: true },
    });
    if (existing) {
      userId.set(account.key, existing.id);
      continue;
    }
    const user = await tx.user.create({
      data: {
        tenantId: tenantId.get(account.tenant)!,
        name: account.name,
        userName: account.userName,
        email,
        passwordHash: await hashPassword(account.password),
        isAdmin: account.isAdmin,
        isOwner: account.isOwner,
        parentId: account.parent ? userId.get(account.parent) : undefined,
        roles: { create: { roleId: roleId.get(account.role)! } },
      },
    });
    userId.set(account.key, user.id);
    users++;
  }
  count('users', users);
  return created;
}
