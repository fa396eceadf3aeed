import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { MSG } from '@helix/shared';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN, REPLAYED_HEADER } from '@helix/shared/schemas/outbox';
import { AppError } from '@helix/server';
import type { ServerDeps } from '@helix/server/deps';
import { crashPoint } from '@helix/server/crash-point';
import { HeldTransaction } from '@helix/server/db/transaction';
import {
  claimKey,
  completeKey,
  peekKey,
  sweepKeys,
  type Claim,
} from '@helix/server/idempotency/idempotency-store';
import { actorOf } from './auth.ts';
import { errorHandler } from './error-handler.ts';
import { JSON_MAX_DEPTH } from './json-body.ts';
import { uploadedFiles } from './upload.ts';

/**
 * JSON with sorted keys: the same body hashes the same whatever order its fields came in. Bodies are
 * at most JSON_MAX_DEPTH deep (json-body.ts); the guard keeps any other caller from the stack's end.
 */
function stable(value: unknown, depth = 0): unknown {
  if (depth > JSON_MAX_DEPTH) {
    throw new AppError(ERROR_CODES.bodyTooDeep, { status: 400, message: MSG.bodyTooDeep });
  }
  if (Array.isArray(value)) return value.map((v) => stable(v, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, stable((value as Record<string, unknown>)[k], depth + 1)]),
    );
  }
  return value;
}

/** What makes two requests "the same": method and path, If-Match, the body and the uploaded files. */
function requestHash(req: Request): string {
  const hash = createHash('sha256');
  hash.update(`${req.method} ${req.originalUrl.split('?')[0]}\n${req.get('If-Match') ?? ''}\n`);
  hash.update(JSON.stringify(stable(req.body ?? {})) ?? '');
  for (const [field, file] of Object.entries(uploadedFiles(req)).sort(([a], [b]) => a.localeCompare(b))) {
    if (file?.buffer) hash.update(`\n${field}:`).update(file.buffer);
  }
  return hash.digest('hex');
}

/** Answers kept for a replay: successes and refusals; never 5xx or "try later" (429, 408). */
const keeps = (status: number) => status >= 200 && status < 500 && status !== 429 && status !== 408;

const SWEEP_EVERY_MS = 60 * 60_000;

/**
 * How long the request's transaction may stay open. It begins at the command's first write (image
 * checks and other slow work before it hold no connection) and ends when the answer is stored.
 */
const IDEMPOTENT_TRANSACTION_TIMEOUT_MS = 30_000;

/** Thrown into the command when the key turned out to be taken: the claim's answer is sent instead. */
class KeyTaken extends Error {
  /** A 4xx for the error handler (quiet); its answer is replaced by the claim's anyway. */
  readonly status = 409;
  constructor() {
    super('Idempotency-Key taken by a committed request');
  }
}

/**
 * `Idempotency-Key` on an outbox call (ARCHITECTURE.md §10). Mounted on each such route after auth and
 * the upload (the body is known), before validation. Without the header the call runs as before.
 *
 * The key's claim, the command's writes and the stored answer commit in ONE transaction (a
 * HeldTransaction, ambient for the rest of the route: the command's withTransaction joins it through a
 * savepoint, its afterCommit jobs go out after the commit), and only then is the answer sent. So a
 * crash at any point leaves either nothing (the retry acts) or the true answer (the retry replays it).
 *
 * - First request with a key: runs; its answer is stored if kept (2xx and 4xx except 429/408). A 5xx
 *   is not kept: everything it did is rolled back and a retry runs again.
 * - Same key, same user, same request: the stored status and body, with `Idempotent-Replayed: true`.
 * - Same key with another body, path or If-Match: 422 IDEMPOTENCY_KEY_REUSED.
 * - Same key while the first request still runs: waits for the first to commit, then replays it.
 * Keys are per user and kept IDEMPOTENCY_KEY_TTL_DAYS (30) days, swept hourly by each API process.
 */
export function idempotent(
  deps: Pick<ServerDeps, 'db' | 'logger'>,
  options: {
    /**
     * The route's command changes the caller's tenant row (its unique brand name or domain): the row is
     * locked FOR UPDATE before the key is claimed. The key's row refers to the tenant, so its claim
     * takes a KEY SHARE lock on it; two requests holding that lock and then both asking for the
     * stronger one deadlock (answered 503 DATABASE_BUSY). Taken first, the second request waits.
     */
    locksTenant?: boolean;
  } = {},
): RequestHandler {
  const { db } = deps;
  let lastSweep = 0;
  return async (req, res, next) => {
    const key = req.get(IDEMPOTENCY_HEADER);
    if (key === undefined) {
      next();
      return;
    }
    if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
      throw new AppError(ERROR_CODES.idempotencyKeyInvalid, {
        status: 400,
        message: MSG.idempotencyKeyInvalid,
      });
    }
    const actor = actorOf(req);
    const id = {
      userId: actor.user.id,
      key,
      tenantId: actor.tenant.id,
      route: `${req.method} ${req.originalUrl.split('?')[0]}`,
      requestHash: requestHash(req),
    };
    const now = new Date();
    if (now.getTime() - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = now.getTime();
      void sweepKeys(db, now).catch((err: unknown) => deps.logger.warn({ err }, 'idempotency sweep failed'));
    }

    const json = res.json.bind(res);
    /** The answer of a key another request committed: sent instead of this request's own. */
    const answerWith = (claim: Exclude<Claim, { kind: 'claimed' }>) => {
      switch (claim.kind) {
        case 'replay':
          res.set(REPLAYED_HEADER, 'true').status(claim.status);
          json(claim.body);
          return;
        case 'reused':
          errorHandler(
            new AppError(ERROR_CODES.idempotencyKeyReused, {
              status: 422,
              message: MSG.idempotencyKeyReused,
            }),
            req,
            res,
            next,
          );
          return;
        case 'running':
          errorHandler(
            new AppError(ERROR_CODES.idempotencyInProgress, {
              status: 409,
              message: MSG.idempotencyInProgress,
            }),
            req,
            res,
            next,
          );
      }
    };

    // A committed answer (or another request's key) needs no transaction.
    const seen = await peekKey(db, id, now);
    if (seen.kind !== 'claimed') {
      answerWith(seen);
      return;
    }

    let taken: Exclude<Claim, { kind: 'claimed' }> | undefined;
    const held = new HeldTransaction(db, {
      timeoutMs: IDEMPOTENT_TRANSACTION_TIMEOUT_MS,
      onBegin: async (tx) => {
        if (options.locksTenant)
          await tx.$queryRaw`SELECT id FROM "Tenant" WHERE id = ${id.tenantId} FOR UPDATE`;
        const claim = await claimKey(tx, id, now);
        if (claim.kind !== 'claimed') {
          taken = claim;
          throw new KeyTaken();
        }
        crashPoint('idempotency:after-claim');
      },
    });

    /** Stores a kept answer with the command's writes, commits, then sends it; else rolls back. */
    const settle = async (status: number, body: unknown) => {
      if (taken) {
        await held.rollback();
        answerWith(taken);
        return;
      }
      crashPoint('idempotency:after-command');
      if (!keeps(status)) {
        await held.rollback();
        json(body);
        return;
      }
      try {
        await held.commit(
          async (tx) => {
            await completeKey(tx, id, status, body);
            crashPoint('idempotency:after-answer');
          },
          (err) => req.log?.error({ err }, 'after-commit work of an idempotent request failed'),
        );
      } catch (err) {
        if (taken) {
          answerWith(taken);
          return;
        }
        // Nothing (or, if the commit itself failed, maybe everything) was stored: the client retries
        // with the same key and gets either a fresh run or the stored answer.
        req.log?.warn({ err }, 'idempotent answer not committed');
        res.removeHeader(REPLAYED_HEADER);
        errorHandler(err, req, res, next);
        return;
      }
      crashPoint('idempotency:after-commit');
      json(body);
    };

    let settled = false;
    res.json = (body: unknown) => {
      if (settled) return json(body);
      settled = true;
      settle(res.statusCode, body).catch((err: unknown) => {
        req.log?.error({ err }, 'idempotent answer failed');
        if (!res.headersSent) res.status(500).end();
      });
      return res;
    };
    // An answer that did not go through res.json (none of the outbox routes): nothing is kept.
    res.on('finish', () => {
      if (!settled) void held.rollback();
    });
    held.run(() => next());
  };
}
