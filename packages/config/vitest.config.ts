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
    // Hang detectors, not speed checks: a case that takes 1 s on an idle machine took 30 s with two CI
    // runs and several engineers' builds on the 2 cores (load average 40), and must still pass there.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // Likewise for expect.poll: its default gives up after 1 s, which a loaded CI machine overran.
    expect: { poll: { timeout: 15_000 } },
    maxWorkers: 2,
    // Every answer of the API test app is checked against the OpenAPI reference (apps/api/test/contract.ts).
    // A worker ends when vitest is gone (packages/stack/src/testing/exit-with-runner.ts).
    setupFiles: ['apps/api/test/contract-setup.ts', 'packages/stack/src/testing/exit-with-runner.ts'],
    // Each worker imports the app once for all its files instead of once per file: the whole suite
    // took 104 s instead of 222 s on 2 cores (import 11 s instead of 125 s). Every test file makes its
    // own database, apps and Redis prefix, so nothing that matters is shared through modules.
    isolate: false,
  },
});
