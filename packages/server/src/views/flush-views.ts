import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type { Db } from '../db.ts';
import { parseViewHash, viewCommands, viewKeys, type ViewEntry } from './view-store.ts';
import { withTransaction } from '../db/transaction.ts';
import { viewsFlushed, viewsLastFlush } from '../metrics/metrics.ts';

export interface FlushDeps {
  db: Db;
  redis: Redis;
  prefix: string;
  logger?: Logger;
}

export interface FlushResult {
  /** Batches applied to PostgreSQL by this run. */
  batches: number;
  /** Views they held. */
  views: number;
  /** Batches found already applied (a crash after commit, before the Redis delete). */
  skipped: number;
}

/** ViewFlush rows older than this are pruned; a batch left in Redis longer would be applied again. */
const VIEW_FLUSH_RETENTION_DAYS = 30;

/** The batch ids among `ids` that are already in PostgreSQL. */
export async function appliedBatches(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.viewFlush.findMany({ where: { id: { in: ids } }, select: { id: true } });
  return new Set(rows.map((r) => r.id));
}

/** Several fields can land on one ModelViewDaily row (its key has no source): add them up first. */
function rowsOf(entries: ViewEntry[]) {
  const rows = new Map<
    string,
    {
      modelId: number;
      tenantId: number;
      day: string;
      viewerKey: string;
      source: string;
      userId: number | null;
      embedTokenId: number | null;
      ltiContextId: number | null;
      count: number;
    }
  >();
  for (const e of entries) {
    const key = `${e.modelId}|${e.tenantId}|${e.day}|${e.viewerKey}`;
    const row = rows.get(key);
    if (row) {
      row.count += e.count;
      continue;
    }
    const id = Number(e.viewerKey.slice(2));
    rows.set(key, {
      modelId: e.modelId,
      tenantId: e.tenantId,
      day: e.day,
      viewerKey: e.viewerKey,
      source: e.source,
      userId: e.viewerKey.startsWith('u:') ? id : null,
      embedTokenId: e.viewerKey.startsWith('e:') ? id : null,
      ltiContextId: e.viewerKey.startsWith('l:') ? id : null,
      count: e.count,
    });
  }
  return [...rows.values()];
}

/**
 * Adds the entries' counts to ModelViewDaily (one statement). Rows of models or tenants deleted in the
 * meantime are dropped, and of users or embed tokens deleted, unlinked, instead of failing.
 */
export async function addViewRows(db: Pick<Db, '$executeRaw'>, entries: ViewEntry[]): Promise<void> {
  const rows = rowsOf(entries);
  if (rows.length === 0) return;
  // Embed views are attributed to the user who made the link (per-user statistics); LTI launches to
  // their course (views per class), no user.
  await db.$executeRaw`
    INSERT INTO "ModelViewDaily" ("modelId", "tenantId", "day", "source", "viewerKey", "userId", "embedTokenId", "ltiContextId", "count")
    SELECT v."modelId", v."tenantId", v."day", v."source"::"ViewSource", v."viewerKey",
           u."id", et."id", lc."id", v."count"
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
         AS v("modelId" int, "tenantId" int, "day" date, "source" text, "viewerKey" text,
              "userId" int, "embedTokenId" int, "ltiContextId" int, "count" int)
    JOIN "Model" m ON m."id" = v."modelId"
    JOIN "Tenant" t ON t."id" = v."tenantId"
    LEFT JOIN "EmbedToken" et ON et."id" = v."embedTokenId"
    LEFT JOIN "LtiContext" lc ON lc."id" = v."ltiContextId"
    LEFT JOIN "User" u ON u."id" = COALESCE(v."userId", et."createdById")
    ON CONFLICT ("modelId", "tenantId", "day", "viewerKey")
    DO UPDATE SET "count" = "ModelViewDaily"."count" + EXCLUDED."count"`;
}

/**
 * Applies one batch exactly once: in ONE transaction, record the batch id in ViewFlush (a batch already
 * there was applied before: nothing to do) and add its counts to ModelViewDaily; after the commit,
 * delete the batch from Redis. A crash anywhere leaves the batch in Redis and the next run decides by
 * ViewFlush whether it still has to be applied. Rows of models, tenants, users or embed tokens deleted
 * in the meantime are dropped or unlinked instead of failing the whole batch.
 *
 * `deleteAfterCommit: false` is for tests that simulate a crash between the commit and the Redis delete.
 */
export async function applyBatch(
  deps: FlushDeps,
  id: string,
  options: { deleteAfterCommit?: boolean } = {},
): Promise<{ views: number; skipped: boolean }> {
  const keys = viewKeys(deps.prefix);
  const hash = await deps.redis.hgetall(keys.flushing(id));
  if (Object.keys(hash).length === 0) {
    // Gone: another flush applied and deleted it in the meantime.
    await deps.redis.srem(keys.batches, id);
    return { views: 0, skipped: true };
  }
  const entries = parseViewHash(hash);
  const bad = Object.keys(hash).length - entries.length;
  if (bad > 0) deps.logger?.warn({ batch: id, bad }, 'flush-views: ignored malformed fields');
  const views = entries.reduce((sum, e) => sum + e.count, 0);

  const applied = await withTransaction(deps.db, async (tx) => {
    const inserted =
      await tx.$executeRaw`INSERT INTO "ViewFlush" ("id") VALUES (${id}) ON CONFLICT ("id") DO NOTHING`;
    if (inserted === 0) return false;
    await addViewRows(tx, entries);
    return true;
  });

  if (options.deleteAfterCommit !== false) {
    await deps.redis.multi().del(keys.flushing(id)).srem(keys.batches, id).exec();
  }
  return { views: applied ? views : 0, skipped: !applied };
}

/** Take the pending hash as a new batch (atomic RENAME); null when nothing is pending. */
export async function claimPending(deps: Pick<FlushDeps, 'redis' | 'prefix'>): Promise<string | null> {
  const keys = viewKeys(deps.prefix);
  const id = randomUUID();
  const claimed = await viewCommands(deps.redis).helixClaimPending(
    keys.pending,
    keys.flushing(id),
    keys.batches,
    keys.claims,
    id,
  );
  return claimed === 1 ? id : null;
}

/**
 * Batches left by an earlier run that crashed or failed (found by SCAN, so even one missing from the
 * batches set is found): put back in the set so the next flush applies or discards them.
 */
export async function recoverBatches(deps: Pick<FlushDeps, 'redis' | 'prefix'>): Promise<number> {
  const keys = viewKeys(deps.prefix);
  const marker = keys.flushing('');
  let cursor = '0';
  let found = 0;
  do {
    const [next, batchKeys] = await deps.redis.scan(cursor, 'MATCH', keys.flushingPattern, 'COUNT', 1000);
    cursor = next;
    const ids = batchKeys.map((k) => k.slice(marker.length)).filter(Boolean);
    if (ids.length) {
      found += ids.length;
      await deps.redis.sadd(keys.batches, ...ids);
    }
  } while (cursor !== '0');
  return found;
}

/**
 * flush-views: first the batches still in Redis (a crash or failure of an earlier run), then the
 * pending hash taken as a new batch. Safe to run concurrently (ViewFlush decides).
 */
export async function flushViews(deps: FlushDeps, options: { recover?: boolean } = {}): Promise<FlushResult> {
  const keys = viewKeys(deps.prefix);
  const result: FlushResult = { batches: 0, views: 0, skipped: 0 };
  if (options.recover) await recoverBatches(deps);
  const apply = async (id: string) => {
    const { views, skipped } = await applyBatch(deps, id);
    if (skipped) result.skipped += 1;
    else {
      result.batches += 1;
      result.views += views;
    }
  };
  for (const id of await deps.redis.smembers(keys.batches)) await apply(id);
  const id = await claimPending(deps);
  if (id) await apply(id);
  if (options.recover) await pruneViewFlushes(deps.db);
  viewsFlushed.inc(result.views);
  viewsLastFlush.setToCurrentTime();
  return result;
}

/** ViewFlush only has to remember batches that could still be in Redis. */
export async function pruneViewFlushes(db: Db, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - VIEW_FLUSH_RETENTION_DAYS * 24 * 3600 * 1000);
  const { count } = await db.viewFlush.deleteMany({ where: { appliedAt: { lt: before } } });
  return count;
}
