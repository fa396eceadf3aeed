import { BUILT_IN_ROLES } from '@helix/shared';
import type { Prisma } from '../db.ts';

/** Prefixes a customer tenant may never take: the platform tenant's and words of our own URLs. */
const RESERVED_PREFIXES = new Set(['services', 'api', 'www', 'admin', 'app', 'dev', 'static', 'assets', 't']);

/**
 * A free name that keeps the username rule (lowercase letters, then digits): `base`, else `base2`,
 * `base3`, ... `taken` says which candidates exist already.
 */
export function firstFree(
  base: string,
  taken: ReadonlySet<string>,
  reserved: ReadonlySet<string> = new Set(),
) {
  if (!taken.has(base) && !reserved.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}${n}`;
    if (!taken.has(candidate) && !reserved.has(candidate)) return candidate;
  }
}

/** The tenant's domainPrefix: the owner's username, or the username with a number when it is taken. */
export async function freeDomainPrefix(tx: Prisma.TransactionClient, userName: string): Promise<string> {
  const letters = userName.replace(/[0-9]+$/, '');
  const rows = await tx.tenant.findMany({
    where: { domainPrefix: { startsWith: letters } },
    select: { domainPrefix: true },
  });
  return firstFree(userName, new Set(rows.map((r) => r.domainPrefix)), RESERVED_PREFIXES);
}

/** A username for a Google account: the letters of the e-mail's local part, made unique. */
export async function freeUserName(tx: Prisma.TransactionClient, email: string): Promise<string> {
  const base =
    (email.split('@')[0] ?? '')
      .toLowerCase()
      .replace(/[^a-z]/g, '')
      .slice(0, 30) || 'user';
  const rows = await tx.user.findMany({
    where: { userName: { startsWith: base } },
    select: { userName: true },
  });
  return firstFree(base, new Set(rows.map((r) => r.userName)));
}

export interface NewOwner {
  name: string;
  /** The tenant's name when it is not the person's (platform Add User); default: `name`. */
  tenantName?: string;
  userName: string;
  email: string;
  passwordHash: string | null;
  emailStatus: boolean;
  googleId?: string | null;
  profilePicture?: string | null;
}

/**
 * Sign-up: a customer tenant (named after the person), its default branding, a subscription row in
 * state 'none', and its owner holding the built-in Admin role. A marketing opt-in also joins the
 * newsletter list.
 */
export async function createCustomerTenant(tx: Prisma.TransactionClient, owner: NewOwner) {
  const adminRole = await tx.role.findUnique({ where: { name: BUILT_IN_ROLES.admin } });
  if (!adminRole) throw new Error(`The built-in role ${BUILT_IN_ROLES.admin} is missing: run the seed.`);
  const domainPrefix = await freeDomainPrefix(tx, owner.userName);
  const tenant = await tx.tenant.create({
    data: {
      domainPrefix,
      name: owner.tenantName ?? owner.name,
      branding: { create: {} },
      subscription: { create: { status: 'none' } },
    },
  });
  const user = await tx.user.create({
    data: {
      tenantId: tenant.id,
      name: owner.name,
      userName: owner.userName,
      email: owner.email,
      passwordHash: owner.passwordHash,
      isOwner: true,
      emailStatus: owner.emailStatus,
      googleId: owner.googleId ?? null,
      profilePicture: owner.profilePicture ?? null,
      roles: { create: { roleId: adminRole.id } },
    },
  });
  if (owner.emailStatus) await subscribeNewsletter(tx, owner.email);
  return { tenant, user };
}

export async function subscribeNewsletter(tx: Prisma.TransactionClient, email: string) {
  await tx.newsletterSubscriber.upsert({ where: { email }, create: { email }, update: {} });
}
