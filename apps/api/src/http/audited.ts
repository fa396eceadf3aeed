import type { Request, RequestHandler } from 'express';
import { MSG } from '@helix/shared';
import { QUEUED_AT_HEADER, type AuditAction } from '@helix/shared/schemas/audit';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { REPLAYED_HEADER } from '@helix/shared/schemas/outbox';
import { AppError } from '@helix/server';
import { currentAudit, runAudited, writePendingAudit } from '@helix/server/audit/audit-context';
import { withTransaction } from '@helix/server/db/transaction';
import type { ServerDeps } from '@helix/server/deps';
import { actorOf } from './auth.ts';
import { uploadedFiles } from './upload.ts';

/** The mark the route inventory test reads (audited-routes.test.ts): this route's action. */
export const AUDIT_ACTION = Symbol('audit action');

/**
 * When an offline edit was queued (X-Queued-At, sent by the outbox on replay): null when absent. A
 * value that is not an ISO 8601 time is refused (400); a time ahead of the server's clock (the
 * device's clock is off) is taken as now: refusing it would turn a good offline edit into a refusal.
 */
function queuedAtOf(req: Request, now = new Date()): Date | null {
  const raw = req.get(QUEUED_AT_HEADER);
  if (raw === undefined) return null;
  const time = /^\d{4}-\d{2}-\d{2}T[\d:.]+(Z|[+-]\d{2}:\d{2})$/.test(raw) ? new Date(raw) : null;
  if (!time || Number.isNaN(time.getTime())) {
    throw new AppError(ERROR_CODES.queuedAtInvalid, { status: 400, message: MSG.queuedAtInvalid });
  }
  return time > now ? now : time;
}

/** Uploaded files as an event keeps them: name, type and size, never the bytes. */
function filesOf(req: Request): Record<string, unknown> | undefined {
  const files = Object.entries(uploadedFiles(req)).filter(([, file]) => file);
  if (files.length === 0) return undefined;
  return {
    files: Object.fromEntries(
      files.map(([field, file]) => [
        field,
        { name: file!.originalname, type: file!.mimetype, size: file!.size },
      ]),
    ),
  };
}

/**
 * Records the route's change in the audit log (docs/audit-log.md): mounted after validation (and
 * after `idempotent`, so a replayed answer records nothing again). The event is written by the
 * request's first transaction, inside it (packages/server/src/audit/audit-context.ts). A route whose
 * command writes without withTransaction (a single statement, or Stripe) has its event written when it
 * answers 2xx, in a transaction of its own or in the request's idempotency transaction. A refused or
 * failed call records nothing.
 *
 * `targetType` names what is changed; `idField` the validated field holding its id (none: the
 * tenant's single record, e.g. its branding, or an id the command notes with noteAudit).
 */
export function audited(
  deps: Pick<ServerDeps, 'db'>,
  action: AuditAction,
  targetType: string,
  idField?: string,
  options: { atAnswer?: boolean } = {},
): RequestHandler {
  const handler: RequestHandler = (req, res, next) => {
    const actor = actorOf(req);
    const queuedAt = queuedAtOf(req);
    const input = () => req.input ?? {};
    runAudited(
      {
        action,
        actor,
        target: () => {
          const value = idField
            ? ((input() as Record<string, unknown>)[idField] ?? req.params[idField])
            : undefined;
          return {
            type: targetType,
            id: typeof value === 'string' || typeof value === 'number' ? value : null,
          };
        },
        input,
        extra: () => filesOf(req),
        queuedAt,
        atAnswer: options.atAnswer,
        requestId: req.id ?? null,
      },
      () => {
        const context = currentAudit()!;
        const json = res.json.bind(res);
        res.json = (body: unknown) => {
          // A replayed Idempotency-Key answer changed nothing now: the first request recorded it.
          if (res.statusCode >= 300 || context.written || res.get(REPLAYED_HEADER)) return json(body);
          // Changed outside any transaction of ours (a single write, a Stripe call): recorded now,
          // before the answer; joined with the Idempotency-Key transaction when there is one.
          withTransaction(deps.db, (tx) => writePendingAudit(tx, context, true))
            .catch((err: unknown) => req.log?.error({ err, action }, 'audit event not written'))
            .finally(() => json(body));
          return res;
        };
        next();
      },
    );
  };
  Object.defineProperty(handler, AUDIT_ACTION, { value: action });
  return handler;
}
