/**
 * Parser for the fixed-column ATOM/HETATM records of a PDB file
 * (https://www.wwpdb.org/documentation/file-format-content/format33/sect9.html).
 */

export interface PdbAtom {
  record: 'ATOM' | 'HETATM';
  serial: number;
  name: string;
  altLoc: string;
  resName: string;
  chainId: string;
  resSeq: number;
  x: number;
  y: number;
  z: number;
  occupancy: number;
  tempFactor: number;
  element: string;
}

export interface PdbStructure {
  id: string;
  title: string;
  atoms: PdbAtom[];
}

const WATER = new Set(['HOH', 'WAT', 'DOD', 'H2O']);

export const isWater = (a: PdbAtom): boolean => WATER.has(a.resName);

function col(line: string, start: number, end: number): string {
  // PDB columns are 1-based and inclusive.
  return line.slice(start - 1, end).trim();
}

/** Element from columns 77-78, or guessed from the atom name when that column is blank. */
function elementOf(line: string, name: string): string {
  const e = col(line, 77, 78);
  if (e) return e[0]!.toUpperCase() + e.slice(1).toLowerCase();
  const letters = name.replace(/[^A-Za-z]/g, '');
  return letters ? letters[0]!.toUpperCase() : 'X';
}

export function parsePdb(text: string): PdbStructure {
  const atoms: PdbAtom[] = [];
  let id = '';
  const titleParts: string[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const record = raw.slice(0, 6).trim();
    if (record === 'HEADER') id = col(raw, 63, 66);
    else if (record === 'TITLE') titleParts.push(col(raw, 11, 80));
    else if (record === 'ATOM' || record === 'HETATM') {
      const name = col(raw, 13, 16);
      atoms.push({
        record,
        serial: Number(col(raw, 7, 11)),
        name,
        altLoc: col(raw, 17, 17),
        resName: col(raw, 18, 20),
        chainId: col(raw, 22, 22),
        resSeq: Number(col(raw, 23, 26)),
        x: Number(col(raw, 31, 38)),
        y: Number(col(raw, 39, 46)),
        z: Number(col(raw, 47, 54)),
        occupancy: Number(col(raw, 55, 60) || '1'),
        tempFactor: Number(col(raw, 61, 66) || '0'),
        element: elementOf(raw, name),
      });
    } else if (record === 'ENDMDL') break; // first model only
  }
  return { id, title: titleParts.join(' ').replace(/\s+/g, ' ').trim(), atoms };
}

/** Protein (non-water) atoms, keeping only the first alternate location of each atom. */
export function proteinAtoms(structure: PdbStructure, chainId?: string): PdbAtom[] {
  return structure.atoms.filter(
    (a) =>
      a.record === 'ATOM' &&
      !isWater(a) &&
      (chainId === undefined || a.chainId === chainId) &&
      (a.altLoc === '' || a.altLoc === 'A'),
  );
}

export function waters(structure: PdbStructure): PdbAtom[] {
  return structure.atoms.filter(isWater);
}

/** Covalent radii in Å (Cordero et al. 2008), used to decide which atom pairs are bonded. */
export const COVALENT_RADIUS: Record<string, number> = {
  H: 0.31,
  C: 0.76,
  N: 0.71,
  O: 0.66,
  S: 1.05,
  P: 1.07,
  Se: 1.2,
  Fe: 1.32,
  Zn: 1.22,
};

/** CPK-style colours (Jmol palette). */
export const CPK_COLOR: Record<string, `#${string}`> = {
  H: '#ffffff',
  C: '#909090',
  N: '#3050f8',
  O: '#ff0d0d',
  S: '#ffff30',
  P: '#ff8000',
  Fe: '#e06633',
  Zn: '#7d80b0',
  X: '#ff1493',
};

/**
 * Bonds inferred from distance: two atoms are bonded when closer than the sum of their covalent
 * radii plus a tolerance. Uses a spatial grid so it stays linear in the atom count.
 */
export function inferBonds(atoms: PdbAtom[], tolerance = 0.45): [number, number][] {
  const cell = 2.2;
  const grid = new Map<string, number[]>();
  const key = (x: number, y: number, z: number) => `${x},${y},${z}`;
  atoms.forEach((a, i) => {
    const k = key(Math.floor(a.x / cell), Math.floor(a.y / cell), Math.floor(a.z / cell));
    const list = grid.get(k);
    if (list) list.push(i);
    else grid.set(k, [i]);
  });
  const bonds: [number, number][] = [];
  atoms.forEach((a, i) => {
    const cx = Math.floor(a.x / cell);
    const cy = Math.floor(a.y / cell);
    const cz = Math.floor(a.z / cell);
    const ra = COVALENT_RADIUS[a.element] ?? 0.8;
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++)
        for (let dz = -1; dz <= 1; dz++) {
          for (const j of grid.get(key(cx + dx, cy + dy, cz + dz)) ?? []) {
            if (j <= i) continue;
            const b = atoms[j]!;
            const d = Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z);
            const limit = ra + (COVALENT_RADIUS[b.element] ?? 0.8) + tolerance;
            if (d > 0.4 && d < limit) bonds.push([i, j]);
          }
        }
  });
  bonds.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  return bonds;
}
