import type { LessonView } from '@helix/shared/lessons';
import { describe, expect, it } from 'vitest';
import { applyView, captureView, viewKey, type Cutaway, type LessonScene, type Vec3 } from './lesson-view.ts';

/** A scene of plain values: what the viewer's scene keeps, without WebGL. */
function fakeScene(partNames: string[]) {
  const s = {
    camera: { position: [0, 0, 5] as Vec3, target: [0, 0, 0] as Vec3 },
    selected: null as string | null,
    hidden: new Set<string>(),
    cutaway: null as Cutaway | null,
    labels: false,
    colours: new Map<string, string>(),
    pointer: null as Vec3 | null,
  };
  const scene: LessonScene = {
    partNames,
    camera: () => ({ position: [...s.camera.position], target: [...s.camera.target] }),
    setCamera: (c) => (s.camera = { position: [...c.position], target: [...c.target] }),
    selected: () => s.selected,
    setSelected: (name) => (s.selected = name),
    hiddenParts: () => partNames.filter((n) => s.hidden.has(n)),
    setHiddenParts: (names) => (s.hidden = new Set(names)),
    cutaway: () => s.cutaway,
    setCutaway: (c) => (s.cutaway = c),
    labels: () => s.labels,
    setLabels: (on) => (s.labels = on),
    colours: () =>
      Object.fromEntries(partNames.filter((n) => s.colours.has(n)).map((n) => [n, s.colours.get(n)!])),
    setColours: (c) => (s.colours = new Map(c)),
    pointer: () => s.pointer,
    setPointer: (p) => (s.pointer = p),
  };
  return { s, scene };
}

const PARTS = ['Cell membrane', 'Nucleus', 'Mitochondria'];
const view: LessonView = {
  camera: { position: [1, 2, 3], target: [0.5, 0, -0.5] },
  selected: 'Nucleus',
  hiddenParts: ['Cell membrane'],
  cutaway: { axis: 'z', offset: -0.25 },
  labels: true,
  colours: { Mitochondria: '#e53935' },
  pointer: [0.1, 0.2, 0.3],
};

describe('a lesson view on the viewer', () => {
  it('applies every part of a view, and the capture reads the same view back', () => {
    const { s, scene } = fakeScene(PARTS);
    applyView(scene, view);
    expect(s.selected).toBe('Nucleus');
    expect([...s.hidden]).toEqual(['Cell membrane']);
    expect(s.cutaway).toEqual({ axis: 'z', offset: -0.25 });
    expect(s.labels).toBe(true);
    expect([...s.colours]).toEqual([['Mitochondria', '#e53935']]);
    expect(s.pointer).toEqual([0.1, 0.2, 0.3]);
    expect(captureView(scene)).toEqual(view);
    expect(viewKey(captureView(scene))).toBe(viewKey(view));
  });

  it('is whole, never a delta: what a view leaves out is cleared', () => {
    const { s, scene } = fakeScene(PARTS);
    applyView(scene, view);
    applyView(scene, {
      ...view,
      selected: null,
      hiddenParts: [],
      cutaway: null,
      labels: false,
      colours: {},
      pointer: null,
    });
    expect(s).toMatchObject({ selected: null, cutaway: null, labels: false, pointer: null });
    expect(s.hidden.size).toBe(0);
    expect(s.colours.size).toBe(0);
  });

  it("ignores names the model does not have (another model's view, a typo)", () => {
    const { s, scene } = fakeScene(PARTS);
    applyView(scene, {
      ...view,
      selected: 'Chloroplast',
      hiddenParts: ['Chloroplast', 'Nucleus'],
      colours: { Chloroplast: '#43a047', __proto__: '#000000', Nucleus: '#1e88e5' },
    });
    expect(s.selected).toBeNull();
    expect([...s.hidden]).toEqual(['Nucleus']);
    expect(Object.fromEntries(s.colours)).toEqual({ Nucleus: '#1e88e5' });
  });

  it('tells a changed view from the same one', () => {
    const { scene } = fakeScene(PARTS);
    applyView(scene, view);
    const before = viewKey(captureView(scene));
    scene.setCamera({ position: [1, 2, 3.0001], target: [0.5, 0, -0.5] });
    expect(viewKey(captureView(scene))).not.toBe(before);
    scene.setCamera(view.camera);
    expect(viewKey(captureView(scene))).toBe(before);
    scene.setLabels(false);
    expect(viewKey(captureView(scene))).not.toBe(before);
  });
});
