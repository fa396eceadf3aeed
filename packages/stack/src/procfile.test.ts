import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './paths.ts';
import { COMPILED_ENTRIES } from './stack.ts';

const lines = readFileSync(path.join(ROOT, 'Procfile'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('#'));

describe('Procfile', () => {
  it('runs every process with NODE_ENV=production', () => {
    expect(lines.map((line) => line.split(':')[0])).toEqual(['release', 'web', 'worker', 'viewer']);
    for (const line of lines) expect(line, line).toMatch(/^[a-z]+: NODE_ENV=production \S/);
  });

  it('runs plain node on the compiled build: no tsx, no TypeScript, no Vite', () => {
    for (const line of lines) {
      expect(line, line).toMatch(/: NODE_ENV=production node /);
      expect(line, line).not.toMatch(/tsx|vite|\.ts\b/);
    }
    // The processes are the ones `npm start` runs compiled (HELIX_COMPILED=1) and the browser tests use.
    const file = (name: string) =>
      lines
        .find((line) => line.startsWith(`${name}:`))
        ?.split(' ')
        .at(-1);
    expect(file('web')).toBe(path.relative(ROOT, COMPILED_ENTRIES.api));
    expect(file('worker')).toBe(path.relative(ROOT, COMPILED_ENTRIES.worker));
    expect(file('viewer')).toBe(path.relative(ROOT, COMPILED_ENTRIES.viewer));
    expect(file('release')).toBe('packages/stack/dist-node/db-migrate.js');
    const build = readFileSync(path.join(ROOT, 'packages/stack/bin/build-server.mjs'), 'utf8');
    for (const entry of ['apps/api/src/main.ts', 'apps/worker/src/main.ts', 'apps/viewer/src/serve.ts'])
      expect(build).toContain(`'${entry}'`);
  });
});
