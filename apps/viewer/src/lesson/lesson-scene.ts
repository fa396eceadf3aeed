import {
  Mesh,
  MeshBasicMaterial,
  Plane,
  Raycaster,
  SphereGeometry,
  Vector2,
  type Object3D,
  type Vector3Tuple,
} from 'three';
import type { LessonView } from '@helix/shared/lessons';
import type { Part, Viewer3D } from '../scene/viewer-3d.ts';
import type { LabelLayer } from '../ui/labels.ts';
import { cutawayPlane } from './cutaway.ts';
import type { Cutaway, LessonScene, Vec3 } from './lesson-view.ts';

/** The pointer marker's radius, as a share of the model's radius. */
const MARKER_SIZE = 0.03;

const visibleInScene = (o: Object3D | null): boolean => {
  for (let x = o; x; x = x.parent) if (!x.visible) return false;
  return true;
};

/**
 * A live lesson's view on the viewer's scene: the camera and the orbit target, the highlighted part,
 * the layers, a cut-away (a global clipping plane of the renderer), the labels, part colours and the
 * leader's pointer (a small sphere drawn over the model, at the pointed world point).
 */
export class ViewerLessonScene implements LessonScene {
  readonly partNames: readonly string[];
  private readonly byName: Map<string, Part>;
  private cut: Cutaway | null = null;
  private readonly plane = new Plane();
  private point: Vec3 | null = null;
  private readonly marker: Mesh<SphereGeometry, MeshBasicMaterial>;
  private readonly raycaster = new Raycaster();

  constructor(
    private readonly viewer: Viewer3D,
    private readonly labelLayer: LabelLayer | null,
    markerColour: string,
  ) {
    this.byName = new Map(viewer.parts.map((p) => [p.name, p]));
    this.partNames = viewer.parts.map((p) => p.name);
    // Drawn over everything (no depth test), so the class sees it even at the back of a part.
    this.marker = new Mesh(
      new SphereGeometry(1, 20, 14),
      new MeshBasicMaterial({ color: markerColour, depthTest: false, transparent: true, opacity: 0.9 }),
    );
    this.marker.renderOrder = 10;
    this.marker.visible = false;
    this.marker.scale.setScalar(viewer.modelRadius * MARKER_SIZE);
    viewer.scene.add(this.marker);
  }

  camera(): LessonView['camera'] {
    return {
      position: this.viewer.camera.position.toArray(),
      target: this.viewer.controls.target.toArray(),
    };
  }

  setCamera(camera: LessonView['camera']): void {
    this.viewer.setView(camera.position, camera.target, true);
  }

  selected(): string | null {
    return this.viewer.highlightedPart?.name ?? null;
  }

  setSelected(name: string | null): void {
    const part = name === null ? null : (this.byName.get(name) ?? null);
    if (part !== this.viewer.highlightedPart) this.viewer.highlight(part);
  }

  hiddenParts(): string[] {
    return this.viewer.parts.filter((p) => !p.object.visible).map((p) => p.name);
  }

  setHiddenParts(names: ReadonlySet<string>): void {
    for (const part of this.viewer.parts) {
      const visible = !names.has(part.name);
      if (part.object.visible !== visible) this.viewer.setPartVisible(part, visible);
    }
  }

  cutaway(): Cutaway | null {
    return this.cut && { ...this.cut };
  }

  setCutaway(cutaway: Cutaway | null): void {
    const box = this.viewer.bounds;
    this.cut = cutaway && box ? { ...cutaway } : null;
    if (this.cut && box) cutawayPlane(box, this.cut, this.plane);
    this.viewer.renderer.clippingPlanes = this.cut ? [this.plane] : [];
    this.viewer.invalidate();
  }

  labels(): boolean {
    return this.labelLayer?.visible ?? false;
  }

  setLabels(on: boolean): void {
    if (this.labelLayer && this.labelLayer.visible !== on) this.labelLayer.setVisible(on);
  }

  colours(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const part of this.viewer.parts) {
      const colour = this.viewer.partColour(part);
      if (colour) out[part.name] = colour;
    }
    return out;
  }

  setColours(colours: ReadonlyMap<string, string>): void {
    for (const part of this.viewer.parts) this.viewer.setPartColour(part, colours.get(part.name) ?? null);
  }

  /** One part's colour (the leader's palette). */
  setPartColour(name: string, colour: string | null): void {
    const part = this.byName.get(name);
    if (part) this.viewer.setPartColour(part, colour);
  }

  pointer(): Vec3 | null {
    return this.point && [...this.point];
  }

  setPointer(point: Vec3 | null): void {
    const same = point === this.point || (point && this.point && point.every((v, i) => v === this.point![i]));
    if (same) return;
    this.point = point && [...point];
    this.marker.visible = point !== null;
    if (point) this.marker.position.set(...point);
    this.viewer.invalidate();
  }

  /**
   * The point of the model under a screen position (CSS pixels of the page), or null: the nearest
   * hit on a visible part that the cut-away has not cut away.
   */
  pick(clientX: number, clientY: number): Vec3 | null {
    const canvas = this.viewer.renderer.domElement;
    const rect = canvas.getBoundingClientRect();
    if (!rect.width || !rect.height) return null;
    const ndc = new Vector2(
      ((clientX - rect.left) / rect.width) * 2 - 1,
      -((clientY - rect.top) / rect.height) * 2 + 1,
    );
    this.raycaster.setFromCamera(ndc, this.viewer.camera);
    for (const hit of this.raycaster.intersectObject(this.viewer.pivot, true)) {
      if (!visibleInScene(hit.object)) continue;
      if (this.cut && this.plane.distanceToPoint(hit.point) < 0) continue;
      return hit.point.toArray() as Vector3Tuple;
    }
    return null;
  }

  /** A part's label anchor in world coordinates (the pointer's start for a keyboard user). */
  anchorOf(name: string): Vec3 | null {
    const part = this.byName.get(name);
    return part ? (part.object.localToWorld(part.anchor.clone()).toArray() as Vector3Tuple) : null;
  }
}
