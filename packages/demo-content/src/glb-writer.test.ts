import { describe, expect, it } from 'vitest';
import { cylinder, ellipsoid } from './geometry.ts';
import { readGlb, validateGlb } from './glb-inspect.ts';
import { modelToGlb } from './glb-writer.ts';
import type { ModelDef } from './model-def.ts';

const tiny = (): ModelDef => ({
  name: 'Tiny',
  urlModelName: 'tiny',
  description: 'Test model',
  root: {
    name: 'Root',
    children: [
      { name: 'Ball', mesh: ellipsoid(1, 8, 6), material: { name: 'Red', color: '#ff0000' } },
      {
        name: 'Glass',
        mesh: cylinder(0.5, 0.5, 2),
        material: { name: 'Glass', color: '#88ccff', opacity: 0.4, doubleSided: true },
      },
    ],
  },
  animations: [
    {
      name: 'Spin',
      channels: [{ node: 'Root', path: 'rotation', times: [0, 1], values: [0, 0, 0, 1, 0, 1, 0, 0] }],
    },
  ],
  thumbnail: { yaw: 0, pitch: 0, background: ['#000000', '#111111'] },
});

describe('modelToGlb', () => {
  it('writes a structurally valid GLB', async () => {
    const glb = await modelToGlb(tiny());
    expect(await validateGlb(glb)).toEqual([]);
    expect(glb.byteLength % 4).toBe(0);
    expect(new DataView(glb.buffer, glb.byteOffset).getUint32(4, true)).toBe(2);
    const json = await readGlb(glb);
    expect(json.buffers?.[0]?.byteLength).toBeGreaterThan(0);
    expect(json.nodes?.map((n) => n.name)).toEqual(['Root', 'Ball', 'Glass']);
    expect(json.scenes?.[0]?.extras).toMatchObject({ title: 'Tiny', description: 'Test model' });
    expect(json.materials?.[1]).toMatchObject({ name: 'Glass', alphaMode: 'BLEND' });
    expect(json.animations?.[0]?.channels[0]?.target).toEqual({ node: 0, path: 'rotation' });
  });

  it('is deterministic', async () => {
    expect(Buffer.from(await modelToGlb(tiny())).equals(Buffer.from(await modelToGlb(tiny())))).toBe(true);
  });

  it('flags broken files', async () => {
    const glb = await modelToGlb(tiny());
    const broken = glb.slice();
    broken[0] = 0;
    expect((await validateGlb(broken))[0]).toMatch(/glb|magic|invalid/i);
    expect((await validateGlb(glb.slice(0, glb.byteLength - 4))).length).toBeGreaterThan(0);
  });

  it('rejects duplicate node names and unknown animation targets', async () => {
    const dup = tiny();
    dup.root.children![1]!.name = 'Ball';
    await expect(modelToGlb(dup)).rejects.toThrow(/Duplicate/);
    const bad = tiny();
    bad.animations![0]!.channels[0]!.node = 'Nope';
    await expect(modelToGlb(bad)).rejects.toThrow(/unknown node/);
  });
});
