import { IDEMPOTENCY_KEY_TTL_DAYS } from '@helix/shared/schemas/outbox';
import type { Db, Prisma } from '../db.ts';

/**
 * The IdempotencyKey table as a store of first answers (apps/api/src/http/idempotency.ts). A key is
 * claimed by inserting its row INSIDE the transaction that also holds the command's writes and then
 * the answer, so the row is seen by others only with its answer, committed together with the effect:
 * a crash anywhere before that commit leaves nothing (the retry acts), after it the true answer (the
 * retry replays it). A second request with the key blocks on the primary key until the first commits.
 */
export interface KeyId {
  userId: number;
  key: string;
}

export interface KeyRequest {
  tenantId: number;
  route: string;
  requestHash: string;
}

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'reused' }
  | { kind: 'running' };

type Reader = Db | Prisma.TransactionClient;

export const KEY_TTL_MS = IDEMPOTENCY_KEY_TTL_DAYS * 24 * 3600_000;
/**
 * A committed 'running' row is only written by the previous version of this store (claim, act, then
 * answer, in separate steps): one older than this belongs to a request that died with its process.
 */
export const STALE_RUNNING_MS = 2 * 60_000;

const where = (id: KeyId) => ({ userId_key: { userId: id.userId, key: id.key } });

/** What a committed row says about a request; null when the key is free (absent, expired or stale). */
async function committedAnswer(
  db: Reader,
  id: KeyId & KeyRequest,
  now: Date,
): Promise<{ claim: Exclude<Claim, { kind: 'claimed' }> } | { expired: Date } | null> {
  const row = await db.idempotencyKey.findUnique({ where: where(id) });
  if (!row) return null;
  const age = now.getTime() - row.createdAt.getTime();
  if (age > KEY_TTL_MS || (row.state === 'running' && age > STALE_RUNNING_MS)) {
    return { expired: row.createdAt };
  }
  if (row.requestHash !== id.requestHash || row.route !== id.route) return { claim: { kind: 'reused' } };
  if (row.state === 'running' || row.responseStatus === null) return { claim: { kind: 'running' } };
  return { claim: { kind: 'replay', status: row.responseStatus, body: row.responseBody } };
}

/** Outside a transaction: the stored answer, a reuse, or 'claimed' when the key looks free. */
export async function peekKey(db: Db, id: KeyId & KeyRequest, now = new Date()): Promise<Claim> {
  const found = await committedAnswer(db, id, now);
  return found && 'claim' in found ? found.claim : { kind: 'claimed' };
}

/**
 * Inside the request's transaction: inserts the key's row (uncommitted, so invisible to others). An
 * insert racing another request's uncommitted row waits for that transaction; once it commits, its
 * answer is returned instead (replay, or reused for another request).
 */
export async function claimKey(
  tx: Prisma.TransactionClient,
  id: KeyId & KeyRequest,
  now = new Date(),
): Promise<Claim> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const { count } = await tx.idempotencyKey.createMany({
      data: [{ ...id, state: 'running', createdAt: now }],
      skipDuplicates: true,
    });
    if (count === 1) return { kind: 'claimed' };
    const found = await committedAnswer(tx, id, now);
    if (found === null) continue;
    if ('claim' in found) return found.claim;
    await tx.idempotencyKey.deleteMany({
      where: { userId: id.userId, key: id.key, createdAt: found.expired },
    });
  }
  return { kind: 'running' };
}

/** Stores the answer of the key claimed in this transaction. */
export async function completeKey(
  tx: Prisma.TransactionClient,
  id: KeyId,
  status: number,
  body: unknown,
): Promise<void> {
  await tx.idempotencyKey.update({
    where: where(id),
    data: {
      state: 'done',
      responseStatus: status,
      responseBody: (body ?? null) as Prisma.InputJsonValue,
    },
  });
}

/** Deletes keys older than the TTL (IDEMPOTENCY_KEY_TTL_DAYS). */
export async function sweepKeys(db: Db, now = new Date()): Promise<number> {
  const { count } = await db.idempotencyKey.deleteMany({
    where: { createdAt: { lt: new Date(now.getTime() - KEY_TTL_MS) } },
  });
  return count;
}
