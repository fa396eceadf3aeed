import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Browser flows: one stack (API + worker + viewer over a fresh database) for the whole run, started in
 * the global setup; files run one after another because they share it and the machine has 2 cores.
 */
export default defineConfig({
  root,
  test: {
    include: ['apps/*/e2e/**/*.e2e.test.ts'],
    globalSetup: [path.join(root, 'apps/web/e2e/support/global-setup.ts')],
    // A worker ends when vitest is gone (packages/stack/src/testing/exit-with-runner.ts).
    setupFiles: [path.join(root, 'packages/stack/src/testing/exit-with-runner.ts')],
    environment: 'node',
    fileParallelism: false,
    maxWorkers: 1,
    // The files import playwright and the server's modules once, not once each (about a minute).
    isolate: false,
    // Hang detectors, not speed checks (as vitest.config.ts).
    testTimeout: 180_000,
    hookTimeout: 300_000,
    // expect.poll waits for the page, it does not time it: its default gives up after 1 s, which a
    // loaded CI run overran (the home grid's sorted answer, an embed link's creation...).
    expect: { poll: { timeout: 15_000 } },
  },
});
