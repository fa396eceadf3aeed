import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/prisma/client.ts';

export * from './generated/prisma/client.ts';

/**
 * A query waits at most this long for a pooled connection (a new one included): with PostgreSQL down
 * or every connection busy, a request fails fast (503 DATABASE_UNAVAILABLE) instead of hanging.
 */
export const DB_CONNECT_TIMEOUT_MS = 2000;

const pools = new WeakMap<PrismaClient, pg.Pool>();

/**
 * One PrismaClient per process, over node-postgres (no downloaded engine needed). The pool is made
 * here (the client ends it on $disconnect) so its use can be measured: poolOf.
 */
export function createDb(
  connectionString: string,
  { connectTimeoutMs = DB_CONNECT_TIMEOUT_MS }: { connectTimeoutMs?: number } = {},
): PrismaClient {
  const pool = new pg.Pool({ connectionString, connectionTimeoutMillis: connectTimeoutMs });
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  pools.set(db, pool);
  return db;
}

/** The node-postgres pool under a client made by createDb (metrics read its counts). */
export const poolOf = (db: PrismaClient): pg.Pool | undefined => pools.get(db);

export type Db = PrismaClient;
