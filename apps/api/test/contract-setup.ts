import { afterAll, afterEach } from 'vitest';

/**
 * Setup file of the unit and API tests (packages/config/vitest.config.ts): an answer of the test app
 * that drifts from the API reference (recorded by apps/api/test/contract.ts) fails the test that
 * caused it, or the file when it came from a hook. No import of the checker: other tests pay nothing.
 */
const VIOLATIONS = Symbol.for('helix.contractViolations');

function failOnDrift() {
  const list = (globalThis as Record<symbol, string[] | undefined>)[VIOLATIONS];
  if (!list?.length) return;
  const found = list.splice(0);
  throw new Error(
    `${found.length} answer(s) drift from the API reference (each route's defineRoute declaration):\n${found.join('\n')}`,
  );
}

afterEach(failOnDrift);
afterAll(failOnDrift);
