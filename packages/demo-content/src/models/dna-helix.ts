import { cylinderBetween, lerp, merge, sphere, tube, type MeshData, type Vec3 } from '../geometry.ts';
import type { ModelDef, PartDef } from '../model-def.ts';

/** B-DNA proportions in nanometres. */
const RISE = 0.34;
const BP_PER_TURN = 10.5;
const RADIUS = 1.0;
/** Angular offset between the two strands; less than 180° gives the major and minor grooves. */
const STRAND_OFFSET = (150 / 180) * Math.PI;
export const DNA_SEQUENCE = 'ATGCGTACCGGATTACAGTCGATC';
const COMPLEMENT: Record<string, string> = { A: 'T', T: 'A', G: 'C', C: 'G' };
const BASE_NAME: Record<string, string> = { A: 'Adenine', T: 'Thymine', G: 'Guanine', C: 'Cytosine' };
const BASE_COLOR: Record<string, `#${string}`> = { A: '#e8554e', T: '#f2c14e', G: '#5bbf6a', C: '#4e8fe8' };
export const DNA_ANIMATION_SECONDS = 12;

/** A 24 base-pair B-DNA double helix with a looping rotation animation. */
export function buildDnaHelix(): ModelDef {
  const n = DNA_SEQUENCE.length;
  const twist = (2 * Math.PI) / BP_PER_TURN;
  const y0 = (-(n - 1) * RISE) / 2;
  const strandPoint = (strand: 0 | 1, t: number, r = RADIUS * 0.9): Vec3 => {
    const a = t * twist + (strand ? STRAND_OFFSET : 0);
    return [Math.cos(a) * r, y0 + t * RISE, Math.sin(a) * r];
  };

  const backbones = ([0, 1] as const).map((strand) => {
    const pts: Vec3[] = [];
    for (let s = 0; s <= (n - 1) * 8; s++) pts.push(strandPoint(strand, s / 8));
    return tube(pts, 0.11, 8, true);
  });

  const phosphates: MeshData[] = [];
  const bases = new Map<string, MeshData[]>();
  const anchors = new Map<string, { target: number; best: number; point: Vec3 }>();
  const targets: Record<string, number> = { A: 0.12, T: 0.37, G: 0.62, C: 0.87 };
  for (let i = 0; i < n; i++) {
    const p1 = strandPoint(0, i);
    const p2 = strandPoint(1, i);
    phosphates.push(sphere(0.19, p1, 10, 7));
    phosphates.push(sphere(0.19, p2, 10, 7));
    const b1 = DNA_SEQUENCE[i]!;
    const b2 = COMPLEMENT[b1]!;
    const mid = lerp(p1, p2, 0.5);
    for (const [base, from, to] of [
      [b1, p1, mid],
      [b2, p2, mid],
    ] as const) {
      let mesh = bases.get(base);
      if (!mesh) bases.set(base, (mesh = []));
      mesh.push(cylinderBetween(from, lerp(from, to, 0.97), 0.1, 8, true));
      // Label each base at the pair nearest its own height, so the four labels spread out.
      const f = i / (n - 1);
      const prev = anchors.get(base);
      const dist = Math.abs(f - targets[base]!);
      if (!prev || dist < prev.best)
        anchors.set(base, { target: targets[base]!, best: dist, point: lerp(from, to, 0.5) });
    }
  }

  const baseParts: PartDef[] = ['A', 'T', 'G', 'C'].map((b) => ({
    name: BASE_NAME[b]!,
    description: `${BASE_NAME[b]} (${b}) bases; pairs with ${BASE_NAME[COMPLEMENT[b]!]} (${COMPLEMENT[b]}).`,
    mesh: merge(bases.get(b)!),
    material: { name: BASE_NAME[b]!, color: BASE_COLOR[b]!, roughness: 0.5 },
    extras: { labelAnchor: anchors.get(b)!.point },
  }));

  const top = n - 1;
  const root: PartDef = {
    name: 'DNA double helix',
    description: `B-DNA, ${n} base pairs: 5'-${DNA_SEQUENCE}-3'.`,
    children: [
      {
        name: "Backbone strand 1 (5'→3')",
        description: 'Sugar-phosphate backbone of the first strand.',
        mesh: backbones[0]!,
        material: { name: 'Backbone 1', color: '#f08a3c', roughness: 0.45 },
        extras: { labelAnchor: strandPoint(0, top, RADIUS) },
      },
      {
        name: "Backbone strand 2 (3'→5')",
        description: 'Sugar-phosphate backbone of the complementary, antiparallel strand.',
        mesh: backbones[1]!,
        material: { name: 'Backbone 2', color: '#8a6cf0', roughness: 0.45 },
        extras: { labelAnchor: strandPoint(1, 0, RADIUS) },
      },
      {
        name: 'Phosphate groups',
        description: 'One phosphate per nucleotide links the deoxyribose sugars.',
        mesh: merge(phosphates),
        material: { name: 'Phosphate', color: '#f4e3b5', roughness: 0.35 },
        extras: { labelAnchor: strandPoint(0, Math.round(n / 2), RADIUS) },
      },
      ...baseParts,
    ],
  };

  // One full turn around the helix axis; LINEAR quaternion keys every quarter turn.
  const times: number[] = [];
  const values: number[] = [];
  for (let k = 0; k <= 4; k++) {
    const half = (k * Math.PI) / 4; // half of k quarter-turns
    times.push((k * DNA_ANIMATION_SECONDS) / 4);
    values.push(0, Math.sin(half), 0, Math.cos(half));
  }

  return {
    name: 'DNA double helix',
    urlModelName: 'dna-double-helix',
    description:
      'A right-handed B-DNA double helix of 24 base pairs: two antiparallel sugar-phosphate backbones ' +
      'joined by complementary base pairs (A–T, G–C), about 2 nm wide with 10.5 base pairs per turn.',
    root,
    animations: [{ name: 'Rotate', channels: [{ node: root.name, path: 'rotation', times, values }] }],
    thumbnail: { yaw: 0.3, pitch: 0.15, roll: -0.85, background: ['#101522', '#2a2f4f'] },
  };
}
