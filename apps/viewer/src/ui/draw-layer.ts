import { h } from './dom.ts';

type Stroke = { x: number; y: number }[];

/** A transparent canvas over the 3D view for quick freehand annotations (the `draw` flag). */
export class DrawLayer {
  readonly canvas: HTMLCanvasElement;
  private ctx: CanvasRenderingContext2D;
  private strokes: Stroke[] = [];
  private current: Stroke | null = null;
  private active = false;
  onChange: () => void = () => {};

  constructor(
    private readonly container: HTMLElement,
    private readonly colour: () => string,
  ) {
    this.canvas = h('canvas', { class: 'draw-layer', 'aria-hidden': 'true' });
    this.ctx = this.canvas.getContext('2d')!;
    container.append(this.canvas);
    new ResizeObserver(() => this.resize()).observe(container);
    this.canvas.addEventListener('pointerdown', (e) => {
      if (!this.active) return;
      this.canvas.setPointerCapture(e.pointerId);
      this.current = [this.point(e)];
      this.strokes.push(this.current);
      this.redraw();
    });
    this.canvas.addEventListener('pointermove', (e) => {
      if (!this.current) return;
      for (const ev of e.getCoalescedEvents?.() ?? [e]) this.current.push(this.point(ev));
      this.redraw();
    });
    const end = () => {
      if (this.current) {
        this.current = null;
        this.onChange();
      }
    };
    this.canvas.addEventListener('pointerup', end);
    this.canvas.addEventListener('pointercancel', end);
  }

  get isActive(): boolean {
    return this.active;
  }

  get hasStrokes(): boolean {
    return this.strokes.length > 0;
  }

  setActive(on: boolean): void {
    this.active = on;
    this.canvas.classList.toggle('active', on);
  }

  clear(): void {
    this.strokes = [];
    this.redraw();
    this.onChange();
  }

  /** Points are stored relative to the view size so a resize keeps the drawing in place. */
  private point(e: PointerEvent): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    return { x: (e.clientX - r.left) / r.width, y: (e.clientY - r.top) / r.height };
  }

  private resize(): void {
    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    this.canvas.width = Math.max(1, Math.round(this.container.clientWidth * dpr));
    this.canvas.height = Math.max(1, Math.round(this.container.clientHeight * dpr));
    this.redraw();
  }

  private redraw(): void {
    const { width, height } = this.canvas;
    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    this.ctx.clearRect(0, 0, width, height);
    this.ctx.lineCap = 'round';
    this.ctx.lineJoin = 'round';
    this.ctx.lineWidth = 4 * dpr;
    this.ctx.strokeStyle = this.colour();
    for (const s of this.strokes) {
      this.ctx.beginPath();
      s.forEach((p, i) =>
        i ? this.ctx.lineTo(p.x * width, p.y * height) : this.ctx.moveTo(p.x * width, p.y * height),
      );
      if (s.length === 1) this.ctx.lineTo(s[0]!.x * width + 0.1, s[0]!.y * height);
      this.ctx.stroke();
    }
  }
}
