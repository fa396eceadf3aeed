import { AppError } from '../errors.ts';
import { isRedisUnavailable } from '../redis.ts';

/** Prisma's codes for "cannot reach / lost the server" and "no pooled connection in time". */
const PRISMA_UNREACHABLE = new Set(['P1001', 'P1002', 'P1017', 'P2024']);
/** The driver adapter's kinds for the same (meta.driverAdapterError.cause.kind). */
const ADAPTER_UNREACHABLE = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);
/**
 * PostgreSQL's own: admin/crash shutdown, cannot connect now (starting or stopping), and the 08
 * class (connection exceptions).
 */
const PG_UNAVAILABLE = /^(57P0[123]|08...)$/;
/** What node-postgres says when the server goes away or the pool cannot connect in time (plain Errors). */
const PG_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Can't reach database server|Server has closed the connection|terminating connection due to administrator command|the database system is (starting up|shutting down)/;

interface PrismaishError {
  code?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown; code?: unknown } } };
  cause?: unknown;
}

/** PostgreSQL is unreachable or went away (not a query's own error such as a constraint violation). */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const e = error as PrismaishError;
  if (typeof e.code === 'string' && (PRISMA_UNREACHABLE.has(e.code) || PG_UNAVAILABLE.test(e.code)))
    return true;
  const cause = e.meta?.driverAdapterError?.cause;
  if (typeof cause?.kind === 'string' && ADAPTER_UNREACHABLE.has(cause.kind)) return true;
  if (cause?.kind === 'postgres' && typeof cause.code === 'string' && PG_UNAVAILABLE.test(cause.code))
    return true;
  if (error instanceof Error && PG_MESSAGES.test(error.message)) return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}

/**
 * The 503 for an error meaning a dependency is down (REDIS_UNAVAILABLE or DATABASE_UNAVAILABLE, with
 * Retry-After), or null for any other error. The error handler's one mapping of outages.
 */
export function unavailableError(error: unknown): AppError | null {
  if (isRedisUnavailable(error)) return AppError.unavailable('REDIS_UNAVAILABLE');
  if (isDatabaseUnavailable(error)) return AppError.unavailable('DATABASE_UNAVAILABLE');
  return null;
}
