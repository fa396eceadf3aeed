import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.ts';

export * from './generated/prisma/client.ts';

/**
 * A query waits at most this long for a pooled connection (a new one included): with PostgreSQL down
 * or every connection busy, a request fails fast (503 DATABASE_UNAVAILABLE) instead of hanging.
 */
export const DB_CONNECT_TIMEOUT_MS = 2000;

/** One PrismaClient per process, over node-postgres (no downloaded engine needed). */
export function createDb(connectionString: string): PrismaClient {
  return new PrismaClient({
    adapter: new PrismaPg({ connectionString, connectionTimeoutMillis: DB_CONNECT_TIMEOUT_MS }),
  });
}

export type Db = PrismaClient;
