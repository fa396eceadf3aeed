import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { MSG } from '@helix/shared';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { auditRollbackMark, writePendingAudit } from '../audit/audit-context.ts';
import { Prisma, type Db } from '../db.ts';
import { AppError } from '../errors.ts';

/**
 * The one way commands open a database transaction (ARCHITECTURE.md §5 "Faults").
 *
 * - Transient conflicts (deadlock 40P01, serialization failure 40001) and a connection lost before the
 *   commit are retried here with a short jittered backoff; a caller never sees them as a 500. When the
 *   retries run out the answer is 503 DATABASE_BUSY / DATABASE_UNAVAILABLE with Retry-After.
 * - A connection lost DURING the commit is never retried: the commit may have happened.
 * - Ambient: a withTransaction inside another (same async context) joins it through a SAVEPOINT, so a
 *   failing inner command undoes only its own writes and the outer transaction stays usable.
 * - afterCommit(fn): side effects (enqueue a job, send mail) that must not happen unless the writes
 *   did: run after the OUTERMOST transaction commits, dropped when it rolls back.
 */

export type TransactionClient = Prisma.TransactionClient;

export interface TransactionOptions {
  isolationLevel?: Prisma.TransactionIsolationLevel;
  /** How long the transaction may stay open (Prisma's interactive transaction timeout). */
  timeoutMs?: number;
  /** How long to wait for a connection to start it. */
  maxWaitMs?: number;
}

type Hook = () => unknown;

interface Frame {
  tx: TransactionClient;
  isolationLevel?: Prisma.TransactionIsolationLevel;
  /** Hooks of this frame: handed to the parent frame when a savepoint is released, run at the top. */
  hooks: Hook[];
}

/** A transaction held open by its owner (heldTransaction) and begun only when first needed. */
interface Held {
  begin(): Promise<Frame>;
  /** Its afterCommit hooks, collected before and after it begins. */
  hooks: Hook[];
}

interface Ambient {
  frame?: Frame;
  held?: Held;
}

const ambient = new AsyncLocalStorage<Ambient>();

/** Attempts in all (the first and the retries) and the backoff between them: well under a second. */
export const TRANSACTION_ATTEMPTS = 4;
const BACKOFF_BASE_MS = 20;
/** Seconds a client is told to wait after a 503 from here. */
export const DATABASE_RETRY_AFTER_SECONDS = 1;

/** Full jitter over an exponential step: 0-20, 0-40, 0-80 ms (about 140 ms at worst in all). */
const backoff = (attempt: number) => sleep(Math.random() * BACKOFF_BASE_MS * 2 ** attempt);

const TRANSIENT_SQLSTATES = new Set(['40001', '40P01']);
/** Connection gone or not (yet) possible: admin shutdown, crash shutdown, cannot connect now, 08xxx. */
const CONNECTION_SQLSTATES = /^(08...|57P01|57P02|57P03|53300)$/;
const CONNECTION_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2037']);
const CONNECTION_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND']);
const CONNECTION_MESSAGES =
  /Connection terminated|connection error|Can't reach database|server closed the connection|timeout exceeded when trying to connect|Unable to start a transaction in the given time/i;

/** The SQLSTATE under a Prisma error over @prisma/adapter-pg (or a raw pg error), if any. */
export function sqlState(error: unknown): string | undefined {
  const e = error as {
    code?: unknown;
    meta?: { code?: unknown; driverAdapterError?: { cause?: { originalCode?: unknown; code?: unknown } } };
    cause?: unknown;
  };
  const cause = e?.meta?.driverAdapterError?.cause;
  for (const candidate of [cause?.originalCode, cause?.code, e?.meta?.code, e?.code]) {
    if (typeof candidate === 'string' && /^[0-9A-Z]{5}$/.test(candidate) && !candidate.startsWith('P')) {
      return candidate;
    }
  }
  return undefined;
}

/** A deadlock or serialization failure: nothing was committed, running again may succeed. */
export function isTransientConflict(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2034') return true;
  const state = sqlState(error);
  return state !== undefined && TRANSIENT_SQLSTATES.has(state);
}

/** The connection to PostgreSQL failed, was lost, or none could be had. */
export function isConnectionLost(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  if (error instanceof Prisma.PrismaClientInitializationError) return true;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; kind?: unknown };
  if (
    typeof e.code === 'string' &&
    (CONNECTION_PRISMA_CODES.has(e.code) || CONNECTION_SOCKET_CODES.has(e.code))
  ) {
    return true;
  }
  const state = sqlState(error);
  if (state !== undefined && CONNECTION_SQLSTATES.test(state)) return true;
  if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message)) return true;
  return isConnectionLost(e.cause, depth + 1);
}

/** The answer when the database stays busy or out of reach: 503 with Retry-After, never a 500. */
export function databaseError(error: unknown): AppError | null {
  if (error instanceof AppError) return null;
  // P2028: the transaction expired or could not start: nothing was committed, it is worth retrying.
  const expired = error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2028';
  if (isTransientConflict(error) || expired) {
    return new AppError(ERROR_CODES.databaseBusy, {
      status: 503,
      message: MSG.databaseBusy,
      error: 'Service Unavailable',
      retryAfter: DATABASE_RETRY_AFTER_SECONDS,
      cause: error,
    });
  }
  if (isConnectionLost(error)) {
    return new AppError(ERROR_CODES.databaseUnavailable, {
      status: 503,
      message: MSG.databaseUnavailable,
      error: 'Service Unavailable',
      retryAfter: DATABASE_RETRY_AFTER_SECONDS,
      cause: error,
    });
  }
  return null;
}

/**
 * Runs `fn` after the outermost transaction of this context commits, in the order registered; dropped
 * if it (or the savepoint `fn` was registered in) rolls back. Outside a transaction: now.
 */
export async function afterCommit(fn: Hook): Promise<void> {
  const store = ambient.getStore();
  if (store?.frame) store.frame.hooks.push(fn);
  else if (store?.held) store.held.hooks.push(fn);
  else await fn();
}

/** Runs the hooks in order; every hook runs, the first failure is thrown after them. */
export async function runHooks(hooks: Hook[]): Promise<void> {
  let failure: { error: unknown } | undefined;
  for (const hook of hooks) {
    try {
      await hook();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}

/** A savepoint in `parent`: retried alone on a deadlock (its locks are released by the rollback). */
async function inSavepoint<T>(parent: Frame, fn: (tx: TransactionClient) => Promise<T>): Promise<T> {
  // A serialization failure (40001) dooms a REPEATABLE READ or SERIALIZABLE snapshot: only the
  // outermost transaction can retry it. Under READ COMMITTED a retried savepoint sees fresh data.
  const retryHere = (error: unknown) =>
    (parent.isolationLevel === undefined || parent.isolationLevel === 'ReadCommitted') &&
    isTransientConflict(error);
  for (let attempt = 1; ; attempt += 1) {
    const frame: Frame = { tx: parent.tx, isolationLevel: parent.isolationLevel, hooks: [] };
    const auditRolledBack = auditRollbackMark();
    try {
      const result = await parent.tx.$transaction(async (inner) => {
        frame.tx = inner;
        const value = await ambient.run({ frame }, () => fn(inner));
        // The request's audit event, in the savepoint of its change (audit/audit-context.ts).
        await writePendingAudit(inner);
        return value;
      });
      parent.hooks.push(...frame.hooks);
      return result;
    } catch (error) {
      auditRolledBack();
      if (!retryHere(error) || attempt >= TRANSACTION_ATTEMPTS) throw error;
      await backoff(attempt);
    }
  }
}

/**
 * Runs `fn` in a transaction: joins the ambient one through a savepoint, else begins its own, retried
 * on transient failures before the commit. `fn` may run more than once: keep side effects out of it
 * (use afterCommit). Throws 503 DATABASE_BUSY / DATABASE_UNAVAILABLE when the retries run out.
 * A joining call takes the outer transaction's isolation level and timeout (its own options are not
 * used), and two joining calls must not run at once in one context (Prisma refuses concurrent
 * savepoints). Queries made through `db` instead of `tx` run outside the transaction, on another
 * connection.
 */
export async function withTransaction<T>(
  db: Db,
  fn: (tx: TransactionClient) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const store = ambient.getStore();
  if (store?.frame) return inSavepoint(store.frame, fn);
  if (store?.held) return inSavepoint(await store.held.begin(), fn);

  for (let attempt = 1; ; attempt += 1) {
    const hooks: Hook[] = [];
    let committing = false;
    let result: T;
    const auditRolledBack = auditRollbackMark();
    try {
      result = await db.$transaction(
        async (tx) => {
          const frame: Frame = { tx, isolationLevel: options.isolationLevel, hooks };
          const value = await ambient.run({ frame }, () => fn(tx));
          // The request's audit event commits with its change or not at all (audit/audit-context.ts).
          await writePendingAudit(tx);
          committing = true;
          return value;
        },
        {
          ...(options.isolationLevel ? { isolationLevel: options.isolationLevel } : {}),
          ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
          ...(options.maxWaitMs ? { maxWait: options.maxWaitMs } : {}),
        },
      );
    } catch (error) {
      auditRolledBack();
      // A serialization failure at COMMIT is a certain rollback; a lost connection there is not.
      const retryable = isTransientConflict(error) || (!committing && isConnectionLost(error));
      if (retryable && attempt < TRANSACTION_ATTEMPTS) {
        await backoff(attempt);
        continue;
      }
      throw databaseError(error) ?? error;
    }
    await runHooks(hooks);
    return result;
  }
}

export interface HeldTransactionOptions extends TransactionOptions {
  /** The first statements of the transaction, run when it begins (retried with the begin). */
  onBegin?: (tx: TransactionClient) => Promise<unknown>;
}

/**
 * A transaction that spans more than one call (the Idempotency-Key middleware: the key, the command's
 * writes and the stored answer commit together). `run(cb)` makes it the ambient transaction of `cb`'s
 * async context; it BEGINS only when something needs it (a withTransaction or afterCommit inside, or
 * `commit`), so slow work before the first write (an image check) holds no connection. Then it stays
 * open until `commit(last)` or `rollback()`. Its begin (with `onBegin`) is retried like any
 * transaction's; after it, a deadlock is retried by the savepoint that met it.
 */
export class HeldTransaction {
  private started?: Promise<Frame>;
  private decide!: (decision: { last?: (tx: TransactionClient) => Promise<unknown> } | null) => void;
  private readonly decision = new Promise<{ last?: (tx: TransactionClient) => Promise<unknown> } | null>(
    (resolve) => (this.decide = resolve),
  );
  private outcome?: Promise<void>;
  private committing = false;
  private readonly hooks: Hook[] = [];

  constructor(
    private readonly db: Db,
    private readonly options: HeldTransactionOptions = {},
  ) {}

  /** Whether the transaction has begun (something in it needed the database). */
  get begun(): boolean {
    return this.started !== undefined;
  }

  run<T>(cb: () => T): T {
    return ambient.run({ held: { begin: () => this.begin(), hooks: this.hooks } }, cb);
  }

  begin(): Promise<Frame> {
    this.started ??= this.open();
    return this.started;
  }

  /** Makes the request's audit event pending again if this transaction wrote it and then rolls back. */
  private auditRolledBack: () => void = () => undefined;

  private async open(): Promise<Frame> {
    this.auditRolledBack = auditRollbackMark();
    const { onBegin, isolationLevel, timeoutMs, maxWaitMs } = this.options;
    for (let attempt = 1; ; attempt += 1) {
      let ready!: (frame: Frame) => void;
      const begun = new Promise<Frame>((resolve) => (ready = resolve));
      const outcome = this.db.$transaction(
        async (tx) => {
          const frame: Frame = { tx, isolationLevel, hooks: this.hooks };
          await onBegin?.(tx);
          ready(frame);
          const decision = await this.decision;
          if (decision === null) throw ROLLBACK;
          await ambient.run({ frame }, () => decision.last?.(tx));
          this.committing = true;
        },
        {
          ...(isolationLevel ? { isolationLevel } : {}),
          ...(timeoutMs ? { timeout: timeoutMs } : {}),
          ...(maxWaitMs ? { maxWait: maxWaitMs } : {}),
        },
      );
      const first = await Promise.race([
        begun,
        outcome.then(
          () => null,
          (error: unknown) => ({ error }),
        ),
      ]);
      if (first && 'tx' in first) {
        this.outcome = outcome;
        return first;
      }
      // The transaction failed before it was ready (in onBegin or at its start): nothing to undo.
      const error = first?.error;
      const retryable = isTransientConflict(error) || isConnectionLost(error);
      if (retryable && attempt < TRANSACTION_ATTEMPTS) {
        await backoff(attempt);
        continue;
      }
      throw databaseError(error) ?? error;
    }
  }

  /**
   * Begins if needed, runs `last` in the transaction, commits, then runs the afterCommit hooks
   * (their failure is thrown after the commit: the writes stand). A failure before the commit rolls
   * everything back and is thrown as 503 when transient.
   */
  async commit(last?: (tx: TransactionClient) => Promise<unknown>, hooksFailed?: (error: unknown) => void) {
    await this.begin();
    this.decide({ last });
    try {
      await this.outcome;
    } catch (error) {
      this.auditRolledBack();
      throw databaseError(error) ?? error;
    }
    await runHooks(this.hooks).catch((error: unknown) => hooksFailed?.(error));
  }

  /** Rolls back what the transaction did (if it began); its afterCommit hooks are dropped. */
  async rollback(): Promise<void> {
    this.decide(null);
    this.auditRolledBack();
    if (!this.started) return;
    await this.started.catch(() => undefined);
    await this.outcome?.catch(() => undefined);
  }

  /** Whether a failure of commit() happened while PostgreSQL was committing (the outcome is unknown). */
  get failedInCommit(): boolean {
    return this.committing;
  }
}

const ROLLBACK = new Error('held transaction rolled back');
