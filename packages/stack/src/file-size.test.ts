import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The repository's root (this file is packages/stack/src/file-size.test.ts). */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const MAX_LINES = 400;
/** Not production code: tests, browser and fault tests, benchmarks, test support, generated code. */
const NOT_PRODUCTION =
  /\.test\.|\/e2e\/|\/faults\/|\/bench\/|\/test\/|\/testing\/|\/generated\/|\.d\.ts$|fixture/;

describe('production files', () => {
  it(`over ${MAX_LINES} lines say on their first line why they are one file`, () => {
    const files = execFileSync('git', ['ls-files', 'apps', 'packages', 'prisma'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((f) => /\.(ts|tsx|mjs|js|css)$/.test(f) && !NOT_PRODUCTION.test(f));
    expect(files.length).toBeGreaterThan(300);
    const unexplained = files.filter((file) => {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      const lines = text.split('\n').length;
      return lines > MAX_LINES && !/^(\/\/|\/\*) One file: /.test(text);
    });
    expect(
      unexplained,
      'split the file, or say why it is one on its first line ("// One file: ...")',
    ).toEqual([]);
  });
});
