import type { LessonView } from '@helix/shared/lessons';

export type Vec3 = [number, number, number];
export type Cutaway = NonNullable<LessonView['cutaway']>;

/**
 * What a live lesson reads from the viewer and sets on it, in the terms of a LessonView: the viewer's
 * scene (lesson-scene.ts) or, in unit tests, a stand-in. Part names are the model's (findParts).
 */
export interface LessonScene {
  /** The model's part names, in the model's order. */
  readonly partNames: readonly string[];
  camera(): LessonView['camera'];
  setCamera(camera: LessonView['camera']): void;
  /** The highlighted part (the table of contents' highlight). */
  selected(): string | null;
  setSelected(name: string | null): void;
  /** Parts switched off in the layers. */
  hiddenParts(): string[];
  setHiddenParts(names: ReadonlySet<string>): void;
  cutaway(): Cutaway | null;
  setCutaway(cutaway: Cutaway | null): void;
  labels(): boolean;
  setLabels(on: boolean): void;
  /** Colours set on parts, by name, in the model's order. */
  colours(): Record<string, string>;
  setColours(colours: ReadonlyMap<string, string>): void;
  pointer(): Vec3 | null;
  setPointer(point: Vec3 | null): void;
}

/** The whole visible state, as the leader's viewer reports it. */
export function captureView(scene: LessonScene): LessonView {
  return {
    camera: scene.camera(),
    selected: scene.selected(),
    hiddenParts: scene.hiddenParts(),
    cutaway: scene.cutaway(),
    labels: scene.labels(),
    colours: scene.colours(),
    pointer: scene.pointer(),
  };
}

/**
 * Shows a view: everything in it is set (a view is whole, never a delta). Names this model does not
 * have are ignored: a selection of an unknown part selects nothing.
 */
export function applyView(scene: LessonScene, view: LessonView): void {
  const known = new Set(scene.partNames);
  scene.setCamera(view.camera);
  scene.setHiddenParts(new Set(view.hiddenParts.filter((name) => known.has(name))));
  scene.setSelected(view.selected !== null && known.has(view.selected) ? view.selected : null);
  scene.setColours(new Map(Object.entries(view.colours).filter(([name]) => known.has(name))));
  scene.setCutaway(view.cutaway);
  scene.setLabels(view.labels);
  scene.setPointer(view.pointer);
}

/** A view's identity for "did it change": views captured from one scene list parts in one order. */
export const viewKey = (view: LessonView): string => JSON.stringify(view);
