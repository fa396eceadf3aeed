import type { Part, Viewer3D } from '../scene/viewer-3d.ts';
import { h } from './dom.ts';

/** Name labels anchored to the parts in 3D, repositioned after every rendered frame. */
export class LabelLayer {
  readonly el: HTMLDivElement;
  private items: { part: Part; el: HTMLDivElement }[];
  private shown: boolean;

  constructor(
    private readonly viewer: Viewer3D,
    flagOn: boolean,
    initiallyVisible: boolean,
  ) {
    // data-flag marks the layer only when the `labels` flag is on (labels_ui alone starts hidden).
    this.el = h('div', {
      class: 'labels',
      'data-flag': flagOn ? 'labels' : null,
      'aria-label': 'Part labels',
      role: 'group',
    });
    this.items = viewer.parts.map((part) => {
      const el = h('div', { class: 'label', 'data-part': part.id }, h('span', {}, part.name));
      this.el.append(el);
      return { part, el };
    });
    this.shown = initiallyVisible;
    this.el.hidden = !initiallyVisible;
    viewer.onRender(() => this.update());
  }

  get visible(): boolean {
    return this.shown;
  }

  setVisible(on: boolean): void {
    this.shown = on;
    this.el.hidden = !on;
    this.viewer.invalidate();
  }

  update(): void {
    if (!this.shown) return;
    const highlighted = this.viewer.highlightedPart;
    for (const { part, el } of this.items) {
      const pos = part.object.visible ? this.viewer.anchorOnScreen(part) : null;
      if (!pos) {
        el.style.display = 'none';
        continue;
      }
      el.style.display = '';
      el.style.transform = `translate(${pos.x.toFixed(1)}px, ${pos.y.toFixed(1)}px)`;
      el.classList.toggle('active', part === highlighted);
    }
  }
}
