import type { Part, Viewer3D } from '../scene/viewer-3d.ts';
import { h } from './dom.ts';
import { layoutLabels } from './label-layout.ts';

interface Item {
  part: Part;
  el: HTMLDivElement;
  pill: HTMLSpanElement;
  /** The pill's size, measured once per frame width (the phone layout uses a smaller font). */
  size: { width: number; height: number; frameWidth: number } | null;
}

/**
 * Name labels anchored to the parts in 3D, repositioned after every rendered frame; their name pills
 * are laid out so that none overlaps another or leaves the frame (label-layout.ts).
 */
export class LabelLayer {
  readonly el: HTMLDivElement;
  private items: Item[];
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
      const pill = h('span', {}, part.name);
      const el = h('div', { class: 'label', 'data-part': part.id }, pill);
      this.el.append(el);
      return { part, el, pill, size: null };
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
    const frame = this.viewer.size;
    const shown: { item: Item; x: number; y: number }[] = [];
    for (const item of this.items) {
      const { part, el } = item;
      const pos = part.object.visible ? this.viewer.anchorOnScreen(part) : null;
      if (!pos) {
        el.style.display = 'none';
        continue;
      }
      el.style.display = '';
      el.style.transform = `translate(${pos.x.toFixed(1)}px, ${pos.y.toFixed(1)}px)`;
      el.classList.toggle('active', part === highlighted);
      shown.push({ item, x: pos.x, y: pos.y });
    }
    const placements = layoutLabels(
      shown.map(({ item, x, y }) => ({
        x,
        y,
        ...this.pillSize(item, frame.width),
        first: item.part === highlighted,
      })),
      frame,
    );
    placements.forEach((at, i) => {
      const { item } = shown[i]!;
      if (!at) {
        item.el.style.display = 'none';
        return;
      }
      item.pill.style.transform = `translate(calc(-50% + ${at.dx.toFixed(1)}px), ${at.dy.toFixed(1)}px)`;
    });
  }

  private pillSize(item: Item, frameWidth: number): { width: number; height: number } {
    if (!item.size || item.size.frameWidth !== frameWidth || item.size.width === 0) {
      item.size = { width: item.pill.offsetWidth, height: item.pill.offsetHeight, frameWidth };
    }
    return { width: item.size.width, height: item.size.height };
  }
}
