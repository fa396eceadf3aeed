import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JOBS } from './jobs.ts';

/** docs/jobs.md's table: each family's row, by family, with the text of its jobs cell. */
function documentedFamilies(): Map<string, string> {
  const doc = readFileSync(new URL('../../../docs/jobs.md', import.meta.url), 'utf8');
  const rows = new Map<string, string>();
  for (const [, family, jobs] of doc.matchAll(/^\| `([a-z-]+)` +\| ([^|]+)\|/gm)) rows.set(family!, jobs!);
  return rows;
}

describe('docs/jobs.md', () => {
  it('names every declared job in the row of its queue family, and no family that is not declared', () => {
    const rows = documentedFamilies();
    const declared = new Set(Object.values(JOBS).map((job) => job.family));
    expect([...rows.keys()].sort()).toEqual([...declared].sort());
    for (const job of Object.values(JOBS)) {
      expect(rows.get(job.family), `${job.name} in the ${job.family} row`).toMatch(
        new RegExp(`(^|[ ,])${job.name}([ ,(]|$)`),
      );
    }
  });
});
