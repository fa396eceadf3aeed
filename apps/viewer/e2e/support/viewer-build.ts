import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const distDir = path.join(appDir, 'dist');

function newestMtime(p: string): number {
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(p).map((f) => newestMtime(path.join(p, f))));
}

/** Builds dist/ when it is missing or older than the viewer's sources (VIEWER_E2E_REBUILD=1 forces it). */
export async function ensureViewerBuilt(): Promise<void> {
  const index = path.join(distDir, 'index.html');
  const sources = Math.max(
    newestMtime(path.join(appDir, 'src')),
    newestMtime(path.join(appDir, 'index.html')),
    newestMtime(path.join(appDir, 'vite.config.ts')),
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources && !process.env.VIEWER_E2E_REBUILD) return;
  const { build } = await import('vite');
  // Vitest runs with NODE_ENV=test, which would make this a development build (import.meta.env.DEV
  // true: the page would honour `src` whatever the server says). Build what production serves.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: path.join(appDir, 'vite.config.ts'), logLevel: 'warn' });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}
