import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './paths.ts';

describe('Procfile', () => {
  it('runs every process with NODE_ENV=production', () => {
    const lines = readFileSync(path.join(ROOT, 'Procfile'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'));
    expect(lines.map((line) => line.split(':')[0])).toEqual(['release', 'web', 'worker', 'viewer']);
    for (const line of lines) expect(line, line).toMatch(/^[a-z]+: NODE_ENV=production \S/);
  });
});
