import {
  add,
  ellipsoid,
  merge,
  normalize,
  rotateAround,
  perpendicular,
  scale,
  seededRandom,
  sphere,
  translate,
  tube,
  type MeshData,
  type Vec3,
} from '../geometry.ts';
import type { ModelDef, PartDef } from '../model-def.ts';

const SOMA_RADIUS: Vec3 = [1.25, 1.1, 1.05];
const AXON_START = 1.15;
const AXON_END = 15;

/** Axon centreline: a gentle wave along +x. */
function axonPoint(x: number): Vec3 {
  return [x, 0.35 * Math.sin(x * 0.45), 0.25 * Math.sin(x * 0.3 + 1)];
}

/** A multipolar motor neuron: soma, nucleus, branching dendrites, hillock, myelinated axon, terminals. */
export function buildNeuron(): ModelDef {
  const rand = seededRandom(1906); // Golgi and Cajal's Nobel year
  const range = (a: number, b: number) => a + (b - a) * rand();

  const soma = ellipsoid(
    SOMA_RADIUS,
    36,
    26,
    (d) => 0.06 * Math.sin(5 * d[0] + 2 * d[1]) * Math.cos(4 * d[2]),
  );
  const nucleus = translate(ellipsoid(0.5, 24, 18), [-0.1, 0.1, 0.15]);
  const nucleolus = translate(ellipsoid(0.17, 12, 9), [0.05, 0.22, 0.3]);

  // Dendrites: recursive, tapering branches leaving the soma on the side away from the axon.
  const dendrites: MeshData[] = [];
  const grow = (start: Vec3, dir: Vec3, len: number, r: number, depth: number) => {
    const ctrl: Vec3[] = [start];
    let d = dir;
    let p = start;
    for (let s = 0; s < 4; s++) {
      d = normalize(add(d, [range(-0.35, 0.35), range(-0.35, 0.35), range(-0.35, 0.35)]));
      p = add(p, scale(d, len / 4));
      ctrl.push(p);
    }
    const rEnd = r * 0.55;
    dendrites.push(tube(ctrl, (t) => r + (rEnd - r) * t, 8, true, (ctrl.length - 1) * 4));
    if (depth > 0) {
      const branches = depth > 1 ? 2 : 2 + Math.floor(rand() * 2);
      for (let b = 0; b < branches; b++) {
        const side = perpendicular(d);
        const nd = normalize(
          add(d, scale(rotateAround(side, d, (b / branches) * Math.PI * 2 + rand()), 0.9)),
        );
        grow(p, nd, len * range(0.55, 0.75), rEnd, depth - 1);
      }
    } else {
      dendrites.push(sphere(rEnd * 1.3, p, 8, 6));
    }
  };
  const primary = 6;
  for (let k = 0; k < primary; k++) {
    const around = (k / primary) * Math.PI * 2 + 0.3;
    const dir = normalize([-0.75 + range(-0.2, 0.35), Math.cos(around), Math.sin(around)]);
    const start: Vec3 = [
      dir[0] * SOMA_RADIUS[0] * 0.85,
      dir[1] * SOMA_RADIUS[1] * 0.85,
      dir[2] * SOMA_RADIUS[2] * 0.85,
    ];
    grow(start, dir, range(2.2, 3.0), 0.24, 2);
  }

  // Axon hillock: a cone from the soma into the axon.
  const hillockPts: Vec3[] = [];
  for (let s = 0; s <= 8; s++) hillockPts.push(axonPoint(0.7 + (s / 8) * (AXON_START + 0.9 - 0.7)));
  const hillock = tube(hillockPts, (t) => 0.5 * (1 - t) + 0.13 * t, 14, true);

  const axonPts: Vec3[] = [];
  for (let x = AXON_START + 0.8; x <= AXON_END + 1e-9; x += 0.1) axonPts.push(axonPoint(x));
  const axon = tube(axonPts, 0.12, 10, true);

  // Myelin sheaths with gaps (nodes of Ranvier) between them.
  const sheaths: PartDef[] = [];
  const nodes: MeshData[] = [];
  const nodeCentres: Vec3[] = [];
  const sheathLength = 1.7;
  const gap = 0.3;
  let x = 2.6;
  let index = 1;
  while (x + sheathLength < AXON_END - 0.6) {
    const pts: Vec3[] = [];
    for (let s = 0; s <= 16; s++) pts.push(axonPoint(x + (s / 16) * sheathLength));
    // Rounded ends: the sheath thins at both ends.
    const mesh = tube(
      pts,
      (t) => 0.32 * Math.pow(Math.sin(Math.PI * Math.min(1, 0.12 + t * 0.76)), 0.35),
      16,
      true,
    );
    sheaths.push({
      name: `Myelin sheath ${index}`,
      mesh,
      material: { name: 'Myelin', color: '#f5efe0', roughness: 0.6 },
    });
    const nodeAt = axonPoint(x + sheathLength + gap / 2);
    nodeCentres.push(nodeAt);
    nodes.push(
      tube(
        [axonPoint(x + sheathLength + 0.03), nodeAt, axonPoint(x + sheathLength + gap - 0.03)],
        0.145,
        12,
        true,
      ),
    );
    x += sheathLength + gap;
    index++;
  }

  // Axon terminals: a fan of branches ending in synaptic boutons.
  const terminals: MeshData[] = [];
  const end = axonPoint(AXON_END);
  for (let k = 0; k < 6; k++) {
    const a = (k / 6) * Math.PI * 2;
    const ctrl: Vec3[] = [end];
    const dir = normalize([1, Math.cos(a) * 0.9, Math.sin(a) * 0.9]);
    let p = end;
    for (let s = 0; s < 3; s++) {
      p = add(p, scale(normalize(add(dir, [range(-0.2, 0.2), range(-0.2, 0.2), range(-0.2, 0.2)])), 0.55));
      ctrl.push(p);
    }
    terminals.push(tube(ctrl, (t) => 0.1 - 0.04 * t, 8, false, (ctrl.length - 1) * 5));
    terminals.push(sphere(0.22, p, 14, 10));
  }

  const root: PartDef = {
    name: 'Neuron',
    description: 'Multipolar neuron.',
    children: [
      {
        name: 'Soma',
        description: 'The cell body, with the nucleus and most organelles.',
        mesh: soma,
        material: { name: 'Soma', color: '#d96aa7', opacity: 0.55, roughness: 0.45 },
        extras: { labelAnchor: [0, SOMA_RADIUS[1], 0.3] },
      },
      {
        name: 'Nucleus',
        description: 'Holds the DNA; neurons rarely divide after development.',
        mesh: nucleus,
        material: { name: 'Nucleus', color: '#5a3f9e', roughness: 0.5 },
      },
      {
        name: 'Nucleolus',
        description: 'Site of ribosome assembly, prominent in active neurons.',
        mesh: nucleolus,
        material: { name: 'Nucleolus', color: '#23164f', roughness: 0.6 },
      },
      {
        name: 'Dendrites',
        description: 'Branching processes that receive signals from other neurons.',
        mesh: merge(dendrites),
        material: { name: 'Dendrite', color: '#e58fc0', roughness: 0.5 },
        extras: { labelAnchor: [-3, 1.2, 0] },
      },
      {
        name: 'Axon hillock',
        description: 'Where action potentials are initiated.',
        mesh: hillock,
        material: { name: 'Axon hillock', color: '#c95797', roughness: 0.5 },
        extras: { labelAnchor: axonPoint(1.4) },
      },
      {
        name: 'Axon',
        description: 'Carries action potentials away from the soma.',
        mesh: axon,
        material: { name: 'Axon', color: '#b44a86', roughness: 0.5 },
        extras: { labelAnchor: axonPoint(AXON_END - 0.9) },
      },
      {
        name: 'Myelin sheaths',
        description: 'Insulating layers made by Schwann cells; they speed up conduction.',
        children: sheaths,
        extras: { labelAnchor: add(axonPoint(7.6), [0, 0.3, 0]) },
      },
      {
        name: 'Nodes of Ranvier',
        description: 'Gaps between sheaths where the signal jumps (saltatory conduction).',
        mesh: merge(nodes),
        material: { name: 'Node of Ranvier', color: '#4fc3d9', roughness: 0.4 },
        extras: { labelAnchor: nodeCentres[Math.min(4, nodeCentres.length - 1)] ?? firstPoint(nodes) },
      },
      {
        name: 'Axon terminals',
        description: 'Branch endings with synaptic boutons that release neurotransmitters.',
        mesh: merge(terminals),
        material: { name: 'Axon terminal', color: '#f2a541', roughness: 0.45 },
        extras: { labelAnchor: add(end, [1.3, 0.6, 0]) },
      },
    ],
  };

  return {
    name: 'Neuron',
    urlModelName: 'neuron',
    description:
      'A multipolar neuron: the soma with its nucleus, branching dendrites that receive signals, the axon ' +
      'hillock, and a myelinated axon with nodes of Ranvier ending in axon terminals.',
    root,
    thumbnail: { yaw: 0.8, pitch: 0.3, roll: 0.2, background: ['#14121f', '#3a2c4f'] },
  };
}

function firstPoint(meshes: MeshData[]): Vec3 {
  return [meshes[0]!.positions[0]!, meshes[0]!.positions[1]!, meshes[0]!.positions[2]!];
}
