import { IDEMPOTENCY_KEY_TTL_DAYS } from '@helix/shared/schemas/outbox';
import type { Db, Prisma } from '../db.ts';
import { uniqueViolation } from '../prisma-errors.ts';

/**
 * The IdempotencyKey table as a store of first answers (apps/api/src/http/idempotency.ts). A key is
 * claimed by inserting a 'running' row (the primary key userId+key decides between two racing
 * requests), then completed with the answer before the answer is written to the client, so a client
 * that lost the connection after the server acted reads the stored answer on its retry.
 */
export interface KeyId {
  userId: number;
  key: string;
}

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'reused' }
  | { kind: 'running' };

export const KEY_TTL_MS = IDEMPOTENCY_KEY_TTL_DAYS * 24 * 3600_000;
/**
 * A key still 'running' after this long belongs to a request that died with its process (between
 * acting and storing the answer): it may be claimed again. Every outbox call answers in seconds.
 */
export const STALE_RUNNING_MS = 2 * 60_000;

export async function claimKey(
  db: Db,
  id: KeyId & { tenantId: number; route: string; requestHash: string },
  now = new Date(),
): Promise<Claim> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await db.idempotencyKey.create({
        data: { ...id, state: 'running', createdAt: now },
      });
      return { kind: 'claimed' };
    } catch (error) {
      if (uniqueViolation(error) === null) throw error;
    }
    const row = await db.idempotencyKey.findUnique({
      where: { userId_key: { userId: id.userId, key: id.key } },
    });
    if (!row) continue;
    const age = now.getTime() - row.createdAt.getTime();
    if (age > KEY_TTL_MS || (row.state === 'running' && age > STALE_RUNNING_MS)) {
      await db.idempotencyKey.deleteMany({
        where: { userId: id.userId, key: id.key, createdAt: row.createdAt },
      });
      continue;
    }
    if (row.requestHash !== id.requestHash || row.route !== id.route) return { kind: 'reused' };
    if (row.state === 'running' || row.responseStatus === null) return { kind: 'running' };
    return { kind: 'replay', status: row.responseStatus, body: row.responseBody };
  }
  return { kind: 'running' };
}

/** Stores the first answer of a claimed key. */
export async function completeKey(db: Db, id: KeyId, status: number, body: unknown): Promise<void> {
  await db.idempotencyKey.updateMany({
    where: { userId: id.userId, key: id.key, state: 'running' },
    data: {
      state: 'done',
      responseStatus: status,
      responseBody: (body ?? null) as Prisma.InputJsonValue,
    },
  });
}

/** Forgets a claimed key whose answer is not kept (5xx, 429): a retry runs again. */
export async function releaseKey(db: Db, id: KeyId): Promise<void> {
  await db.idempotencyKey.deleteMany({ where: { userId: id.userId, key: id.key, state: 'running' } });
}

/** Deletes keys older than the TTL (IDEMPOTENCY_KEY_TTL_DAYS). */
export async function sweepKeys(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.idempotencyKey.deleteMany({
    where: { createdAt: { lt: new Date(now.getTime() - KEY_TTL_MS) } },
  });
  return count;
}
