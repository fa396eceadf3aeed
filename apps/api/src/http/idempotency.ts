import { createHash } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { MSG } from '@helix/shared';
import {
  ERROR_CODES,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_PATTERN,
  REPLAYED_HEADER,
} from '@helix/shared/schemas/outbox';
import { AppError } from '@helix/server';
import type { ServerDeps } from '@helix/server/deps';
import { claimKey, completeKey, releaseKey, sweepKeys } from '@helix/server/idempotency/idempotency-store';
import { actorOf } from './auth.ts';
import { uploadedFiles } from './upload.ts';

/** JSON with sorted keys: the same body hashes the same whatever order its fields came in. */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, stable((value as Record<string, unknown>)[k])]),
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
 * `Idempotency-Key` on an outbox call (ARCHITECTURE.md §10). Mounted on each such route after auth and
 * the upload (the body is known), before validation. Without the header the call runs as before.
 *
 * - First request with a key: claims it ('running'), runs, and stores the answer (2xx and 4xx except
 *   429/408) BEFORE writing it to the client, so a client that lost the connection after the server
 *   acted gets the stored answer when it retries: the edit happens exactly once. A 5xx is not kept.
 * - Same key, same user, same request: the stored status and body, with `Idempotent-Replayed: true`.
 * - Same key with another body, path or If-Match: 422 IDEMPOTENCY_KEY_REUSED.
 * - Same key while the first request still runs: 409 IDEMPOTENCY_IN_PROGRESS (retry later).
 * Keys are per user and kept IDEMPOTENCY_KEY_TTL_DAYS (30) days, swept hourly by each API process.
 */
export function idempotent(deps: Pick<ServerDeps, 'db' | 'logger'>): RequestHandler {
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
    const id = { userId: actor.user.id, key };
    const now = new Date();
    if (now.getTime() - lastSweep > SWEEP_EVERY_MS) {
      lastSweep = now.getTime();
      void sweepKeys(db, now).catch((err: unknown) => deps.logger.warn({ err }, 'idempotency sweep failed'));
    }
    const claim = await claimKey(db, {
      ...id,
      tenantId: actor.tenant.id,
      route: `${req.method} ${req.originalUrl.split('?')[0]}`,
      requestHash: requestHash(req),
    });
    switch (claim.kind) {
      case 'reused':
        throw new AppError(ERROR_CODES.idempotencyKeyReused, {
          status: 422,
          message: MSG.idempotencyKeyReused,
        });
      case 'running':
        throw new AppError(ERROR_CODES.idempotencyInProgress, {
          status: 409,
          message: MSG.idempotencyInProgress,
        });
      case 'replay':
        res.set(REPLAYED_HEADER, 'true').status(claim.status).json(claim.body);
        return;
      case 'claimed':
        break;
    }

    const json = res.json.bind(res);
    let settled = false;
    res.json = (body: unknown) => {
      if (settled) return json(body);
      settled = true;
      const status = res.statusCode;
      const store = keeps(status) ? completeKey(db, id, status, body) : releaseKey(db, id);
      store.then(
        () => json(body),
        (err: unknown) => {
          req.log?.error({ err }, 'idempotency answer not stored');
          void releaseKey(db, id).catch(() => undefined);
          json(body);
        },
      );
      return res;
    };
    next();
  };
}
