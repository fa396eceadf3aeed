import { randomBytes } from 'node:crypto';
import {
  ADMIN_ROLE_PERMISSIONS,
  BUILT_IN_ROLES,
  PERMISSIONS,
  USER_ROLE_PERMISSIONS,
  type Permission,
} from '@helix/shared';
import { hashPassword } from '../auth/password.ts';
import type { Db, Plan, SubscriptionStatus, Tenant, User } from '../db.ts';
import { sha256 } from '../tokens.ts';

let counter = 0;
/** A short unique lowercase name (letters then digits: the username rule). */
export const uniqueName = (base = 'user') => {
  counter += 1;
  return `${base}${counter}${randomBytes(2).readUInt16BE(0)}`;
};

/** The permission vocabulary and the built-in roles, as the seed makes them. */
export async function seedRoles(db: Db) {
  await db.permission.createMany({ data: PERMISSIONS.map((name) => ({ name })), skipDuplicates: true });
  const permissions = await db.permission.findMany();
  const idOf = new Map(permissions.map((p) => [p.name, p.id]));
  const role = async (name: string, granted: readonly Permission[]) =>
    db.role.upsert({
      where: { name },
      update: {},
      create: {
        name,
        builtIn: true,
        permissions: { create: granted.map((p) => ({ permissionId: idOf.get(p)! })) },
      },
    });
  return {
    admin: await role(BUILT_IN_ROLES.admin, ADMIN_ROLE_PERMISSIONS),
    user: await role(BUILT_IN_ROLES.user, USER_ROLE_PERMISSIONS),
  };
}

/**
 * The permission list of a customer plan in tests (as the seeded plans list them, less the features
 * their flags turn on): a non-admin has only what their plan includes.
 */
export const CUSTOMER_PLAN_PERMISSIONS: Permission[] = [
  'Model.listing.view',
  'Model.view',
  'Profile.view',
  'Profile.update',
  'Subscription.listing.view',
  'User.invite',
  'User.listing.view',
  'User.detail.view',
  'User.update',
  'User.delete',
];

let planId = 100;
export async function createPlan(db: Db, data: Partial<Plan> & { permissions?: Permission[] } = {}) {
  const { permissions = [], ...rest } = data;
  planId += 1;
  const all = await db.permission.findMany({ where: { name: { in: permissions } } });
  return db.plan.create({
    data: {
      id: planId,
      name: `Plan ${planId}`,
      description: 'A plan',
      family: 'individual',
      planType: 'MONTHLY',
      displayPlantype: 'MONTHLY',
      price: '4.50',
      firstTierPrice: '19.99',
      userLimit: 1,
      ...rest,
      permissions: { create: all.map((p) => ({ permissionId: p.id })) },
    } as never,
  });
}

export async function createTenant(
  db: Db,
  opts: {
    domainPrefix?: string;
    name?: string;
    isPlatform?: boolean;
    plan?: Plan;
    status?: SubscriptionStatus;
    customBrandName?: string;
    customDomainName?: string;
  } = {},
): Promise<Tenant> {
  return db.tenant.create({
    data: {
      domainPrefix: opts.domainPrefix ?? uniqueName('tenant'),
      name: opts.name ?? 'Test tenant',
      isPlatform: opts.isPlatform ?? false,
      customBrandName: opts.customBrandName,
      customDomainName: opts.customDomainName,
      branding: { create: {} },
      subscription: {
        create: {
          status: opts.status ?? (opts.plan ? 'active' : 'none'),
          planId: opts.plan?.id,
          activePayment: opts.plan ? (opts.status ?? 'active') === 'active' : false,
        },
      },
    },
  });
}

export const PASSWORD = 'correct horse battery';

export async function createUser(
  db: Db,
  opts: {
    tenant: Tenant;
    email?: string;
    userName?: string;
    name?: string;
    password?: string | null;
    roles?: string[];
    isAdmin?: boolean;
    isOwner?: boolean;
    deletedAt?: Date;
  },
): Promise<User> {
  const userName = opts.userName ?? uniqueName('user');
  const roles = await db.role.findMany({ where: { name: { in: opts.roles ?? [BUILT_IN_ROLES.admin] } } });
  return db.user.create({
    data: {
      tenantId: opts.tenant.id,
      name: opts.name ?? 'Test User',
      userName,
      email: opts.email ?? `${userName}@example.test`,
      passwordHash: opts.password === null ? null : await hashPassword(opts.password ?? PASSWORD),
      isAdmin: opts.isAdmin ?? false,
      isOwner: opts.isOwner ?? true,
      deletedAt: opts.deletedAt,
      roles: { create: roles.map((r) => ({ roleId: r.id })) },
    },
  });
}

/** An invitation: the invited user exists without a password; the token goes by e-mail. */
export async function createInvite(
  db: Db,
  opts: { tenant: Tenant; email?: string; expiresAt?: Date; usedAt?: Date },
) {
  const user = await createUser(db, {
    tenant: opts.tenant,
    email: opts.email,
    password: null,
    roles: [BUILT_IN_ROLES.user],
    isOwner: false,
    name: 'Invited',
  });
  const token = randomBytes(32).toString('base64url');
  await db.invite.create({
    data: {
      tenantId: opts.tenant.id,
      userId: user.id,
      tokenHash: sha256(token),
      expiresAt: opts.expiresAt ?? new Date(Date.now() + 3600_000),
      usedAt: opts.usedAt,
    },
  });
  return { user, token };
}
