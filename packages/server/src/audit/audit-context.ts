import { AsyncLocalStorage } from 'node:async_hooks';
import type { AuditAction } from '@helix/shared/schemas/audit';
import type { Prisma } from '../db.ts';
import type { Actor } from '../sessions/actor.ts';
import { redact } from './redact.ts';

/**
 * The audit event of the current request (docs/audit-log.md). The API's `audited()` middleware opens a
 * context; the first transaction of that request (withTransaction, db/transaction.ts) writes the event
 * inside itself just before it commits, so the change and its event commit together or not at all. A
 * transaction that rolls back (a refused or failed call) takes the event with it and the context is
 * pending again. A command may add to the event (`noteAudit`): the created record's id, a before/after.
 */

export interface AuditTarget {
  type: string;
  id?: string | number | null;
}

export interface AuditContext {
  action: AuditAction;
  actor: Actor;
  /** The target, read when the event is written (the command may have noted a created id by then). */
  target: () => AuditTarget;
  /** The request's validated fields (redacted when written). */
  input: () => unknown;
  /** Extra fields recorded beside the input (uploaded files' names and sizes). */
  extra?: () => Record<string, unknown> | undefined;
  queuedAt: Date | null;
  /**
   * Written only when the call answers 2xx, not by its transactions: for a command that undoes its own
   * committed work when a later step fails (platform add-user deletes the tenant it made).
   */
  atAnswer?: boolean;
  requestId: string | null;
  /** Set by noteAudit. */
  noted: {
    /** The action when the command knows better (a save that created: 'role.create'). */
    action?: AuditAction;
    targetId?: string | number;
    before?: unknown;
    after?: unknown;
    summary?: Record<string, unknown>;
  };
  written: boolean;
}

/** The only way the table is written: the row of one context. */
export type AuditWriter = Pick<Prisma.TransactionClient, 'auditEvent'>;

const store = new AsyncLocalStorage<AuditContext>();

export function runAudited<T>(context: Omit<AuditContext, 'noted' | 'written'>, fn: () => T): T {
  return store.run({ ...context, noted: {}, written: false }, fn);
}

export const currentAudit = (): AuditContext | undefined => store.getStore();

/**
 * A command tells the event more than the request does: the id of what it created, the state before
 * and after (the event's `changes` then holds them beside the request's fields). No-op outside an
 * audited request (the worker, tests calling commands directly).
 */
export function noteAudit(note: AuditContext['noted']): void {
  const context = store.getStore();
  if (context) Object.assign(context.noted, note);
}

function rowOf(context: AuditContext, now: Date): Prisma.AuditEventUncheckedCreateInput {
  const { user, tenant } = context.actor;
  const target = context.target();
  const targetId = context.noted.targetId ?? target.id;
  const changes: Record<string, unknown> = { request: redact(context.input()) };
  const extra = context.extra?.();
  if (extra && Object.keys(extra).length > 0) Object.assign(changes, redact(extra));
  if (context.noted.before !== undefined) changes.before = redact(context.noted.before);
  if (context.noted.after !== undefined) changes.after = redact(context.noted.after);
  if (context.noted.summary) changes.summary = redact(context.noted.summary);
  return {
    tenantId: tenant.id,
    actorId: user.id,
    actorName: user.name,
    actorEmail: user.email,
    action: context.noted.action ?? context.action,
    targetType: target.type,
    targetId: targetId === undefined || targetId === null ? '' : String(targetId),
    changes: changes as Prisma.InputJsonValue,
    offline: context.queuedAt !== null,
    queuedAt: context.queuedAt,
    appliedAt: now,
    requestId: context.requestId,
  };
}

/**
 * Writes the current request's event with `tx` if it is not written yet (the last statement of a
 * transaction or savepoint, before it commits or is released).
 */
export async function writePendingAudit(
  tx: AuditWriter,
  context: AuditContext | undefined = store.getStore(),
  answering = false,
): Promise<void> {
  if (!context || context.written || (context.atAnswer && !answering)) return;
  await tx.auditEvent.create({ data: rowOf(context, new Date()) });
  context.written = true;
}

/**
 * Taken when a transaction or savepoint begins; called when it rolls back: an event written inside it
 * (by it or by a savepoint it holds) is gone, so the request's event is pending again.
 */
export function auditRollbackMark(): () => void {
  const context = store.getStore();
  const wasWritten = context?.written ?? true;
  return () => {
    if (context && !wasWritten) context.written = false;
  };
}
