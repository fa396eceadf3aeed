import { cylinderBetween, ellipsoid, merge, translate, type MeshData, type Vec3 } from '../geometry.ts';
import type { MaterialDef, ModelDef, PartDef } from '../model-def.ts';
import { CPK_COLOR, inferBonds, proteinAtoms, type PdbStructure } from '../pdb.ts';

/** Å to scene units (nanometres), so the protein is a few units across like the other demo models. */
const SCALE = 0.1;
/** Ball radius = this fraction of the van der Waals radius (classic ball-and-stick look). */
const BALL = 0.25;
const VDW: Record<string, number> = { C: 1.7, N: 1.55, O: 1.52, S: 1.8, P: 1.8, H: 1.2 };
const ELEMENT_NAME: Record<string, string> = {
  C: 'Carbon',
  N: 'Nitrogen',
  O: 'Oxygen',
  S: 'Sulfur',
  P: 'Phosphorus',
  H: 'Hydrogen',
};

/** Ball-and-stick model of ubiquitin (PDB 1UBQ, chain A, waters excluded), atoms coloured by element (CPK). */
export function buildUbiquitin(structure: PdbStructure): ModelDef {
  const atoms = proteinAtoms(structure, 'A');
  if (atoms.length === 0) throw new Error('No protein atoms in chain A');
  const centroid: Vec3 = [0, 0, 0];
  for (const a of atoms) {
    centroid[0] += a.x / atoms.length;
    centroid[1] += a.y / atoms.length;
    centroid[2] += a.z / atoms.length;
  }
  const pos = (i: number): Vec3 => {
    const a = atoms[i]!;
    return [(a.x - centroid[0]) * SCALE, (a.y - centroid[1]) * SCALE, (a.z - centroid[2]) * SCALE];
  };

  // One low-poly unit sphere per element, reused for every atom of that element.
  const byElement = new Map<string, { mesh: MeshData[]; count: number }>();
  atoms.forEach((a, i) => {
    const radius = (VDW[a.element] ?? 1.6) * BALL * SCALE;
    let entry = byElement.get(a.element);
    if (!entry) {
      entry = { mesh: [], count: 0 };
      byElement.set(a.element, entry);
    }
    entry.mesh.push(translate(ellipsoid(radius, 10, 6), pos(i)));
    entry.count++;
  });

  // Label anchors spread around the molecule: each element's atom furthest out in its own direction.
  const LABEL_DIRECTION: Record<string, Vec3> = {
    C: [0, 1, 0.3],
    N: [1, 0, 0.3],
    O: [-1, 0, 0.3],
    S: [0, 0, 1],
  };
  const anchorFor = (el: string): Vec3 => {
    const dir = LABEL_DIRECTION[el] ?? [0, 0, 1];
    let best = -Infinity;
    let anchor: Vec3 = [0, 0, 0];
    atoms.forEach((a, i) => {
      if (a.element !== el) return;
      const p = pos(i);
      const d = p[0] * dir[0] + p[1] * dir[1] + p[2] * dir[2];
      if (d > best) {
        best = d;
        anchor = p;
      }
    });
    return anchor;
  };

  const bonds = inferBonds(atoms);
  let bondAnchor: Vec3 = [0, 0, 0];
  for (const [i, j] of bonds) {
    const mid: Vec3 = [(pos(i)[0] + pos(j)[0]) / 2, (pos(i)[1] + pos(j)[1]) / 2, (pos(i)[2] + pos(j)[2]) / 2];
    if (mid[1] < bondAnchor[1]) bondAnchor = mid;
  }
  const bondMesh: MeshData[] = [];
  for (const [i, j] of bonds) bondMesh.push(cylinderBetween(pos(i), pos(j), 0.13 * SCALE, 6));

  const elementOrder = ['C', 'N', 'O', 'S', 'P', 'H'];
  const elements = [...byElement.keys()].sort(
    (p, q) =>
      ((elementOrder.indexOf(p) + 99) % 99) - ((elementOrder.indexOf(q) + 99) % 99) || p.localeCompare(q),
  );
  const atomParts: PartDef[] = elements.map((el) => {
    const entry = byElement.get(el)!;
    const label = ELEMENT_NAME[el] ?? el;
    const material: MaterialDef = {
      name: `${label} (CPK)`,
      color: CPK_COLOR[el] ?? CPK_COLOR.X!,
      roughness: 0.4,
    };
    return {
      name: `${label} atoms`,
      description: `${entry.count} ${label.toLowerCase()} atoms, coloured ${el === 'C' ? 'grey' : 'by element'} (CPK).`,
      mesh: merge(entry.mesh),
      material,
      extras: { labelAnchor: anchorFor(el) },
    };
  });

  const residues = new Set(atoms.map((a) => a.resSeq)).size;
  return {
    name: 'Ubiquitin (1UBQ)',
    urlModelName: 'ubiquitin-1ubq',
    description:
      `Human ubiquitin, a small regulatory protein of ${residues} amino acids that tags other proteins for ` +
      `degradation. Ball-and-stick model of all ${atoms.length} heavy atoms from PDB entry 1UBQ ` +
      '(X-ray, 1.8 Å; Vijay-Kumar, Bugg and Cook 1987), waters omitted.',
    root: {
      name: 'Ubiquitin',
      description: 'PDB 1UBQ, chain A.',
      children: [
        ...atomParts,
        {
          name: 'Covalent bonds',
          description: `${bonds.length} bonds inferred from interatomic distances.`,
          mesh: merge(bondMesh),
          material: { name: 'Bond', color: '#c8c8c8', roughness: 0.5 },
          extras: { labelAnchor: bondAnchor },
        },
      ],
    },
    thumbnail: { yaw: 0.5, pitch: 0.25, background: ['#0f1b2d', '#243b55'] },
  };
}
