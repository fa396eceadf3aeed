/**
 * The embedded PostgreSQL fallback, run as a child of the stack: PGlite (PostgreSQL compiled to
 * WebAssembly) with its data in a folder, spoken to over the ordinary PostgreSQL wire protocol.
 *
 *   node --import tsx pglite-server.ts <data dir> <port> [max connections]
 *
 * Prints `PGLITE_READY <port>` once it accepts connections; SIGTERM/SIGINT close the database cleanly.
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const [dataDir, portArg, maxArg] = process.argv.slice(2);
if (!dataDir || !portArg) {
  console.error('usage: pglite-server.ts <data dir> <port> [max connections]');
  process.exit(2);
}
mkdirSync(dataDir, { recursive: true });
// pg_trgm: the search indexes of long lists (docs/lists-at-scale.md) use it, as on PostgreSQL.
const db = await PGlite.create(dataDir, { extensions: { pg_trgm } });
const server = new PGLiteSocketServer({
  db,
  host: '127.0.0.1',
  port: Number(portArg),
  maxConnections: Number(maxArg ?? 20),
});
server.addEventListener('error', (event) =>
  console.error('pglite socket error:', (event as CustomEvent).detail),
);
await server.start();
console.log(`PGLITE_READY ${portArg}`);

let closing = false;
async function shutdown(): Promise<void> {
  if (closing) return;
  closing = true;
  try {
    await server.stop();
    await db.close();
  } finally {
    process.exit(0);
  }
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
process.on('SIGHUP', () => void shutdown());
