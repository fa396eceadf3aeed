import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The fault suite (`npm run test:faults`): real processes killed and services stopped. Each file starts
 * what it breaks itself (its own Redis, PostgreSQL, SMTP, API and worker processes), never the machine's
 * shared services; files run one after another because they load the machine's 2 cores.
 */
export default defineConfig({
  root,
  test: {
    include: ['apps/*/faults/**/*.fault.test.ts'],
    // A worker ends when vitest is gone (packages/stack/src/testing/exit-with-runner.ts).
    setupFiles: [path.join(root, 'packages/stack/src/testing/exit-with-runner.ts')],
    environment: 'node',
    fileParallelism: false,
    maxWorkers: 1,
    // Hang detectors, not speed checks (as vitest.config.ts): the lease-kill rounds needed more than
    // 180 s at a load average of 40 on the 2 cores.
    testTimeout: 600_000,
    hookTimeout: 300_000,
    // expect.poll waits, it does not time (its default gives up after 1 s).
    expect: { poll: { timeout: 15_000 } },
  },
});
