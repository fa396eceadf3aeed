import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root and the folders the local stack uses. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Everything the local stack writes (PGlite data, Redis data, caught mail, stored files). Gitignored. */
export const DEFAULT_DATA_DIR = path.join(ROOT, '.data');
export const WEB_DIST_DIR = path.join(ROOT, 'apps', 'web', 'dist');

/** Loads `.env` from the repository root into process.env (variables already set win). */
export function loadDotEnv(file = path.join(ROOT, '.env')): void {
  try {
    process.loadEnvFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
