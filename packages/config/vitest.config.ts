import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Unit and API tests: beside the code they test. Browser flows have their own config. */
export default defineConfig({
  root,
  test: {
    include: [
      'apps/*/src/**/*.test.ts',
      'apps/*/src/**/*.test.tsx',
      'apps/*/build/**/*.test.ts',
      'packages/*/src/**/*.test.ts',
      'prisma/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**', '**/e2e/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    // Every answer of the API test app is checked against the OpenAPI reference (apps/api/test/contract.ts).
    setupFiles: ['apps/api/test/contract-setup.ts'],
  },
});
