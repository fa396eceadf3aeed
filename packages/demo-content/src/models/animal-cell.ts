import {
  add,
  cylinder,
  ellipsoid,
  length,
  mapVertices,
  merge,
  normalize,
  orient,
  scale,
  seededRandom,
  sphere,
  surface,
  translate,
  tube,
  type MeshData,
  type Vec3,
} from '../geometry.ts';
import type { ModelDef, PartDef } from '../model-def.ts';

const MEMBRANE: Vec3 = [5, 3.4, 4.2];
const NUCLEUS_CENTER: Vec3 = [-0.8, 0.1, 0.2];
const NUCLEUS_RADIUS = 1.55;

/** Point on the (smooth) membrane ellipsoid in a direction. */
function onMembrane(dir: Vec3, k = 1): Vec3 {
  const d = normalize(dir);
  const t = 1 / Math.hypot(d[0] / MEMBRANE[0], d[1] / MEMBRANE[1], d[2] / MEMBRANE[2]);
  return scale(d, t * k);
}

/** A stylised eukaryotic animal cell with each organelle as its own named node and material. */
export function buildAnimalCell(): ModelDef {
  const rand = seededRandom(1953);
  const range = (a: number, b: number) => a + (b - a) * rand();
  const occupied: { c: Vec3; r: number }[] = [{ c: NUCLEUS_CENTER, r: NUCLEUS_RADIUS + 1.0 }];
  /** Random free spot inside the cytoplasm (rejection sampling, deterministic). */
  const place = (r: number, within = 0.78, avoid = true): Vec3 => {
    for (let attempt = 0; attempt < 5000; attempt++) {
      const p: Vec3 = [range(-1, 1) * MEMBRANE[0], range(-1, 1) * MEMBRANE[1], range(-1, 1) * MEMBRANE[2]];
      const e = Math.hypot(p[0] / MEMBRANE[0], p[1] / MEMBRANE[1], p[2] / MEMBRANE[2]);
      if (e > within) continue;
      if (avoid && occupied.some((o) => length([p[0] - o.c[0], p[1] - o.c[1], p[2] - o.c[2]]) < o.r + r))
        continue;
      if (avoid) occupied.push({ c: p, r });
      return p;
    }
    throw new Error('Could not place organelle');
  };

  // Plasma membrane: a gently lumpy ellipsoid.
  const membrane = ellipsoid(
    MEMBRANE,
    48,
    32,
    (d) => 0.035 * Math.sin(3 * d[0] + 1) * Math.cos(4 * d[1]) + 0.02 * Math.sin(5 * d[2]),
  );

  const nucleus = translate(
    ellipsoid(NUCLEUS_RADIUS, 32, 24, (d) => 0.025 * Math.sin(4 * d[0]) * Math.sin(3 * d[2])),
    NUCLEUS_CENTER,
  );
  const nucleolusCenter = add(NUCLEUS_CENTER, [0.35, 0.3, 0.45]);
  const nucleolus = translate(
    ellipsoid(0.55, 20, 14, (d) => 0.06 * Math.sin(5 * d[0]) * Math.cos(4 * d[1])),
    nucleolusCenter,
  );

  // Golgi apparatus: a stack of curved, flattened cisternae plus budding vesicles.
  const golgiCenter: Vec3 = [2.6, -0.3, -0.9];
  occupied.push({ c: golgiCenter, r: 1.3 });
  const golgi: MeshData[] = [];
  for (let k = 0; k < 5; k++) {
    const w = 1.2 - k * 0.12;
    const disc = ellipsoid([w, 0.07, w * 0.55], 24, 10);
    const bent = mapVertices(disc, (p) => [p[0], p[1] + (0.35 * (p[0] * p[0])) / (w * w) + k * 0.2, p[2]]);
    golgi.push(translate(bent, add(golgiCenter, [0, -0.4, 0])));
  }
  for (let v = 0; v < 7; v++) {
    const a = (v / 7) * Math.PI * 2;
    golgi.push(
      sphere(
        0.1 + 0.03 * (v % 3),
        add(golgiCenter, [Math.cos(a) * 1.45, 0.45 + 0.15 * Math.sin(2 * a), Math.sin(a) * 0.8]),
        10,
        7,
      ),
    );
  }

  // Rough ER: stacked, wavy sheets wrapped around one side of the nucleus; ribosomes dot them.
  const er: MeshData[] = [];
  const ribosomes: MeshData[] = [];
  for (let layer = 0; layer < 4; layer++) {
    const r = NUCLEUS_RADIUS + 0.35 + layer * 0.28;
    const sheet = surface(
      (u, v) => {
        const theta = 0.8 + v * 1.4; // polar
        const phi = 2.3 + u * 1.9 + 0.1 * layer; // around the -x side of the nucleus
        const rr = r + 0.09 * Math.sin(9 * u + layer) * Math.sin(7 * v);
        return add(NUCLEUS_CENTER, [
          Math.cos(phi) * Math.sin(theta) * rr,
          Math.cos(theta) * rr,
          Math.sin(phi) * Math.sin(theta) * rr,
        ]);
      },
      40,
      22,
    );
    er.push(sheet);
    for (let k = 0; k < 45; k++) {
      const u = rand();
      const v = rand();
      const theta = 0.8 + v * 1.4;
      const phi = 2.3 + u * 1.9 + 0.1 * layer;
      const rr = r + 0.09 * Math.sin(9 * u + layer) * Math.sin(7 * v) + 0.05;
      ribosomes.push(
        sphere(
          0.045,
          add(NUCLEUS_CENTER, [
            Math.cos(phi) * Math.sin(theta) * rr,
            Math.cos(theta) * rr,
            Math.sin(phi) * Math.sin(theta) * rr,
          ]),
          6,
          4,
        ),
      );
    }
  }
  // Smooth ER: a few branching tubules on the far side.
  const smoothEr: MeshData[] = [];
  for (let t = 0; t < 4; t++) {
    const start: Vec3 = add(NUCLEUS_CENTER, [-0.3 + t * 0.35, -NUCLEUS_RADIUS - 0.5, -0.8 + t * 0.5]);
    const ctrl: Vec3[] = [start];
    for (let s = 0; s < 4; s++) {
      const last = ctrl[ctrl.length - 1]!;
      ctrl.push(add(last, [range(-0.6, 0.9), range(-0.5, 0.1), range(-0.5, 0.5)]));
    }
    smoothEr.push(tube(ctrl, 0.08, 8, true, (ctrl.length - 1) * 6));
  }
  // Free ribosomes in the cytosol.
  for (let k = 0; k < 60; k++) ribosomes.push(sphere(0.045, place(0.02, 0.85, false), 6, 4));

  const mitochondria: PartDef[] = [];
  for (let k = 0; k < 7; k++) {
    const len = range(0.6, 0.85);
    const c = place(len);
    const body = ellipsoid([0.3, len, 0.3], 16, 12, (d) => 0.04 * Math.sin(10 * d[1]));
    const axis = normalize([range(-1, 1), range(-1, 1), range(-1, 1)]);
    mitochondria.push({
      name: `Mitochondrion ${k + 1}`,
      mesh: orient(body, axis, c),
      material: { name: 'Mitochondrion', color: '#e0743c', roughness: 0.55 },
    });
  }

  const lysosomes: PartDef[] = [];
  for (let k = 0; k < 6; k++) {
    const r = range(0.2, 0.32);
    lysosomes.push({
      name: `Lysosome ${k + 1}`,
      mesh: sphere(r, place(r), 14, 10),
      material: { name: 'Lysosome', color: '#b04fc4', roughness: 0.4 },
    });
  }

  const peroxisomes: MeshData[] = [];
  for (let k = 0; k < 4; k++) {
    const r = range(0.14, 0.2);
    peroxisomes.push(sphere(r, place(r), 12, 8));
  }

  // Centrosome: two centrioles at right angles.
  const centrosomeAt = place(0.5);
  const centrosome = merge([
    translate(orient(cylinder(0.09, 0.09, 0.45, 9), [0, 1, 0], [0, -0.22, 0]), centrosomeAt),
    translate(orient(cylinder(0.09, 0.09, 0.45, 9), [1, 0, 0], [-0.22, 0, 0.12]), centrosomeAt),
  ]);

  const anchorOf = (meshes: MeshData[]): Vec3 => [
    meshes[0]!.positions[0]!,
    meshes[0]!.positions[1]!,
    meshes[0]!.positions[2]!,
  ];
  const centreOfPart = (p: PartDef): Vec3 => {
    const m = p.mesh!;
    const c: Vec3 = [0, 0, 0];
    const n = m.positions.length / 3;
    for (let i = 0; i < m.positions.length; i += 3) {
      c[0] += m.positions[i]! / n;
      c[1] += m.positions[i + 1]! / n;
      c[2] += m.positions[i + 2]! / n;
    }
    return c;
  };

  const root: PartDef = {
    name: 'Animal cell',
    description: 'Eukaryotic animal cell.',
    children: [
      {
        name: 'Cell membrane',
        description: 'Phospholipid bilayer enclosing the cytoplasm and controlling what enters and leaves.',
        mesh: membrane,
        material: { name: 'Cell membrane', color: '#f3b6c3', opacity: 0.28, roughness: 0.35 },
        extras: { labelAnchor: onMembrane([0.55, 0.75, 0.35]) },
      },
      {
        name: 'Nucleus',
        description: 'Holds the chromosomes; enclosed by the double-membraned nuclear envelope with pores.',
        mesh: nucleus,
        material: { name: 'Nucleus', color: '#5b6fd6', opacity: 0.6, roughness: 0.45 },
        extras: { labelAnchor: add(NUCLEUS_CENTER, [-0.6, NUCLEUS_RADIUS * 0.9, 0.3]) },
      },
      {
        name: 'Nucleolus',
        description: 'Dense region of the nucleus where ribosomal RNA is made and ribosomes are assembled.',
        mesh: nucleolus,
        material: { name: 'Nucleolus', color: '#2b2f7a', roughness: 0.6 },
        extras: { labelAnchor: nucleolusCenter },
      },
      {
        name: 'Rough endoplasmic reticulum',
        description: 'Membrane sheets studded with ribosomes; folds and processes secreted proteins.',
        mesh: merge(er),
        material: { name: 'Rough ER', color: '#4fb3a9', roughness: 0.55, doubleSided: true },
        extras: { labelAnchor: add(NUCLEUS_CENTER, [-NUCLEUS_RADIUS - 1.0, 0.4, 0.4]) },
      },
      {
        name: 'Smooth endoplasmic reticulum',
        description: 'Tubular membranes that make lipids and store calcium.',
        mesh: merge(smoothEr),
        material: { name: 'Smooth ER', color: '#8fd694', roughness: 0.55 },
        extras: { labelAnchor: anchorOf(smoothEr) },
      },
      {
        name: 'Ribosomes',
        description: 'Protein factories, free in the cytosol or bound to the rough ER.',
        mesh: merge(ribosomes),
        material: { name: 'Ribosome', color: '#273043', roughness: 0.7 },
        extras: { labelAnchor: anchorOf(ribosomes) },
      },
      {
        name: 'Golgi apparatus',
        description: 'Stacked cisternae that modify, sort and package proteins into vesicles.',
        mesh: merge(golgi),
        material: { name: 'Golgi apparatus', color: '#f2c84b', roughness: 0.5 },
        extras: { labelAnchor: add(golgiCenter, [0, 0.7, 0]) },
      },
      {
        name: 'Mitochondria',
        description: 'Double-membraned organelles that make ATP by cellular respiration.',
        children: mitochondria,
        extras: { labelAnchor: centreOfPart(mitochondria[0]!) },
      },
      {
        name: 'Lysosomes',
        description: 'Vesicles of digestive enzymes that break down waste and worn-out organelles.',
        children: lysosomes,
        extras: { labelAnchor: centreOfPart(lysosomes[0]!) },
      },
      {
        name: 'Peroxisomes',
        description: 'Small organelles that break down fatty acids and detoxify hydrogen peroxide.',
        mesh: merge(peroxisomes),
        material: { name: 'Peroxisome', color: '#7ccf3c', roughness: 0.5 },
        extras: { labelAnchor: anchorOf(peroxisomes) },
      },
      {
        name: 'Centrosome',
        description: 'A pair of centrioles that organises microtubules and the mitotic spindle.',
        mesh: centrosome,
        material: { name: 'Centrosome', color: '#e9566b', roughness: 0.5 },
        extras: { labelAnchor: centrosomeAt },
      },
    ],
  };

  return {
    name: 'Animal cell',
    urlModelName: 'animal-cell',
    description:
      'A eukaryotic animal cell with its main organelles: nucleus and nucleolus, rough and smooth ' +
      'endoplasmic reticulum, ribosomes, Golgi apparatus, mitochondria, lysosomes, peroxisomes and the ' +
      'centrosome, inside a translucent plasma membrane.',
    root,
    thumbnail: { yaw: -0.5, pitch: 0.45, background: ['#13202c', '#2f4858'] },
  };
}
