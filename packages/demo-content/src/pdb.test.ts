import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultPdbPath } from './build-demo-models.ts';
import { inferBonds, parsePdb, proteinAtoms, waters } from './pdb.ts';

const structure = parsePdb(readFileSync(process.env.HELIX_PDB_PATH ?? defaultPdbPath, 'utf8'));

describe('parsePdb (1UBQ)', () => {
  it('reads the header and title', () => {
    expect(structure.id).toBe('1UBQ');
    expect(structure.title).toMatch(/UBIQUITIN/);
  });

  it('reads 602 protein atoms of chain A and 58 waters', () => {
    const protein = proteinAtoms(structure, 'A');
    expect(protein).toHaveLength(602);
    expect(waters(structure)).toHaveLength(58);
    expect(structure.atoms).toHaveLength(660);
  });

  it('reads the fixed columns exactly', () => {
    const first = structure.atoms[0]!;
    expect(first).toMatchObject({
      record: 'ATOM',
      serial: 1,
      name: 'N',
      resName: 'MET',
      chainId: 'A',
      resSeq: 1,
      element: 'N',
    });
    expect(first.x).toBeCloseTo(27.34, 2);
    expect(first.y).toBeCloseTo(24.43, 2);
    expect(first.z).toBeCloseTo(2.614, 3);
    const counts: Record<string, number> = {};
    for (const a of proteinAtoms(structure, 'A')) counts[a.element] = (counts[a.element] ?? 0) + 1;
    expect(counts).toEqual({ C: 378, N: 105, O: 118, S: 1 });
    expect(new Set(proteinAtoms(structure).map((a) => a.resSeq)).size).toBe(76);
  });

  it('infers covalent bonds by distance', () => {
    const atoms = proteinAtoms(structure, 'A');
    const bonds = inferBonds(atoms);
    // A heavy-atom protein graph has roughly one bond per atom (chains plus side-chain rings).
    expect(bonds.length).toBeGreaterThan(590);
    expect(bonds.length).toBeLessThan(640);
    for (const [i, j] of bonds) {
      const a = atoms[i]!;
      const b = atoms[j]!;
      expect(Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z)).toBeLessThan(2.0);
    }
    // Every atom is bonded to something.
    const bonded = new Set(bonds.flat());
    expect(bonded.size).toBe(atoms.length);
  });
});
