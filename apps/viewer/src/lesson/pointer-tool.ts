import type { Viewer3D } from '../scene/viewer-3d.ts';
import { LatestPerFrame } from './latest-per-frame.ts';
import type { ViewerLessonScene } from './lesson-scene.ts';
import type { Vec3 } from './lesson-view.ts';

/**
 * The leader's pointer: while it is on, the model does not turn under the pointer; moving the mouse
 * over the model (or touching it) puts the lesson's pointer at the point of the model underneath, off
 * the model it is gone. One pick per animation frame, at the latest position.
 */
export class PointerTool {
  private on = false;
  private readonly picks: LatestPerFrame<{ x: number; y: number }>;

  constructor(
    private readonly viewer: Viewer3D,
    private readonly scene: ViewerLessonScene,
    private readonly onChange: () => void,
  ) {
    this.picks = new LatestPerFrame(
      ({ x, y }) => {
        if (this.on) this.scene.setPointer(this.scene.pick(x, y));
      },
      (callback) => viewer.nextFrame(callback),
    );
    const canvas = viewer.renderer.domElement;
    const point = (e: PointerEvent) => {
      if (this.on) this.picks.push({ x: e.clientX, y: e.clientY });
    };
    canvas.addEventListener('pointermove', point);
    canvas.addEventListener('pointerdown', point);
  }

  get active(): boolean {
    return this.on;
  }

  /** On (starting at `at`, e.g. the selected part, for keyboard users) or off (the pointer gone). */
  setActive(on: boolean, at: Vec3 | null = null): void {
    if (on === this.on) return;
    this.on = on;
    this.viewer.pauseInput('pointer', on);
    document.body.dataset.pointing = String(on);
    this.scene.setPointer(on ? at : null);
    this.onChange();
  }
}
