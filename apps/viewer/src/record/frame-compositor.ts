/** The default backdrop of styles.css (`--stage-bg`), drawn the same way into the recording. */
const DEFAULT_GRADIENT: [number, string][] = [
  [0, '#ffffff'],
  [0.7, '#e6eaf1'],
  [1, '#d7dde7'],
];

/** Encoders want even sizes; a recording is at most this wide (a 4K screen records at 1080p-ish). */
const MAX_WIDTH = 1920;

/**
 * Composites what the user sees of the stage into ONE canvas per frame, for MediaRecorder: the
 * backdrop (colour, default gradient or the branding image), the 3D view (WebGL, preserveDrawingBuffer),
 * the drawing layer, and the name labels (DOM elements, drawn as the same pills at their positions).
 * The controls and panels are not recorded.
 */
export class FrameCompositor {
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private raf = 0;
  private scale = 1;

  constructor(private readonly stage: HTMLElement) {
    this.canvas = document.createElement('canvas');
    const ctx = this.canvas.getContext('2d');
    if (!ctx) throw new Error('2D canvas not available');
    this.ctx = ctx;
  }

  /** Fixes the output size (the stream's resolution) and draws every animation frame until stop(). */
  start(): void {
    const rect = this.stage.getBoundingClientRect();
    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    this.scale = Math.min(dpr, MAX_WIDTH / Math.max(1, rect.width));
    this.canvas.width = Math.max(2, Math.round(rect.width * this.scale) & ~1);
    this.canvas.height = Math.max(2, Math.round(rect.height * this.scale) & ~1);
    const loop = () => {
      this.draw();
      this.raf = requestAnimationFrame(loop);
    };
    loop();
  }

  stop(): void {
    cancelAnimationFrame(this.raf);
  }

  draw(): void {
    const { ctx, canvas } = this;
    const rect = this.stage.getBoundingClientRect();
    const sx = canvas.width / Math.max(1, rect.width);
    const sy = canvas.height / Math.max(1, rect.height);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    this.drawBackdrop();
    for (const child of this.stage.children) {
      if (child instanceof HTMLImageElement && child.classList.contains('stage-image')) {
        if (child.complete && child.naturalWidth) this.drawCover(child);
      } else if (child instanceof HTMLCanvasElement && child.width && child.height) {
        ctx.drawImage(child, 0, 0, canvas.width, canvas.height);
      }
    }
    const labels = this.stage.querySelector<HTMLElement>('.labels');
    if (labels && !labels.hidden) {
      ctx.setTransform(sx, 0, 0, sy, 0, 0);
      for (const label of labels.querySelectorAll<HTMLElement>('.label')) {
        if (label.style.display === 'none') continue;
        this.drawLabel(label, rect);
      }
      ctx.setTransform(1, 0, 0, 1, 0, 0);
    }
  }

  private drawBackdrop(): void {
    const { ctx, canvas } = this;
    const bg = getComputedStyle(document.documentElement).getPropertyValue('--stage-bg').trim();
    if (!bg || bg.startsWith('radial-gradient')) {
      const r = Math.hypot(canvas.width, canvas.height) * 0.6;
      const g = ctx.createRadialGradient(
        canvas.width / 2,
        canvas.height * 0.38,
        0,
        canvas.width / 2,
        canvas.height * 0.38,
        r,
      );
      for (const [at, colour] of DEFAULT_GRADIENT) g.addColorStop(at, colour);
      ctx.fillStyle = g;
    } else {
      ctx.fillStyle = bg === 'transparent' ? '#ffffff' : bg;
    }
    ctx.fillRect(0, 0, canvas.width, canvas.height);
  }

  private drawCover(img: HTMLImageElement): void {
    const { canvas } = this;
    const s = Math.max(canvas.width / img.naturalWidth, canvas.height / img.naturalHeight);
    const w = img.naturalWidth * s;
    const h = img.naturalHeight * s;
    this.ctx.drawImage(img, (canvas.width - w) / 2, (canvas.height - h) / 2, w, h);
  }

  /** One label: the anchor dot and the name pill, with the colours and font the page uses. */
  private drawLabel(label: HTMLElement, stageRect: DOMRect): void {
    const { ctx } = this;
    const anchor = label.getBoundingClientRect();
    const ax = anchor.left - stageRect.left;
    const ay = anchor.top - stageRect.top;
    ctx.beginPath();
    ctx.arc(ax, ay, 3, 0, Math.PI * 2);
    ctx.fillStyle = '#ffffff';
    ctx.fill();
    ctx.lineWidth = 1.5;
    ctx.strokeStyle = 'rgba(0, 0, 0, 0.55)';
    ctx.stroke();

    const pill = label.firstElementChild as HTMLElement | null;
    if (!pill) return;
    const box = pill.getBoundingClientRect();
    const style = getComputedStyle(pill);
    const x = box.left - stageRect.left;
    const y = box.top - stageRect.top;
    ctx.beginPath();
    ctx.roundRect(x, y, box.width, box.height, box.height / 2);
    ctx.fillStyle = style.backgroundColor;
    ctx.fill();
    ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    ctx.fillStyle = style.color;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(pill.textContent ?? '', x + box.width / 2, y + box.height / 2 + 0.5);
  }
}
