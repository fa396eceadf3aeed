import type { Db, Prisma } from '../db.ts';

export interface Seats {
  /** Live users of the tenant, the owner included. */
  used: number;
  /** TenantSubscription.userLimit (kept by billing): the owner plus at most limit - 1 invited users. */
  limit: number;
}

/** The tenant's seats as they are now (for display). */
export async function readSeats(db: Db | Prisma.TransactionClient, tenantId: number): Promise<Seats> {
  const [subscription, used] = await Promise.all([
    db.tenantSubscription.findUnique({ where: { tenantId }, select: { userLimit: true } }),
    db.user.count({ where: { tenantId, deletedAt: null } }),
  ]);
  return { used, limit: subscription?.userLimit ?? 1 };
}

/**
 * The seats, with the tenant's subscription row locked until the transaction ends: two invites at the
 * same moment cannot both take the last seat.
 */
export async function lockSeats(tx: Prisma.TransactionClient, tenantId: number): Promise<Seats> {
  await tx.$queryRaw`SELECT id FROM "TenantSubscription" WHERE "tenantId" = ${tenantId} FOR UPDATE`;
  return readSeats(tx, tenantId);
}
