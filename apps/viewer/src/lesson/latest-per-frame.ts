/**
 * Coalesces values to one per animation frame: push() keeps only the latest and asks for one frame;
 * at that frame the latest is run. A follower on a slow tablet never works through a queue of views,
 * it shows the newest one the next time it draws. flush() runs the waiting value now (message order
 * honoured when the role changes before the frame).
 */
export class LatestPerFrame<T> {
  private pending: { value: T } | null = null;
  private scheduled = false;

  constructor(
    private readonly run: (value: T) => void,
    /** Runs a callback once at the next frame (the viewer's, before it draws: Viewer3D.nextFrame). */
    private readonly requestFrame: (callback: () => void) => void,
  ) {}

  push(value: T): void {
    this.pending = { value };
    if (this.scheduled) return;
    this.scheduled = true;
    this.requestFrame(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  flush(): void {
    const pending = this.pending;
    this.pending = null;
    if (pending) this.run(pending.value);
  }

  get waiting(): boolean {
    return this.pending !== null;
  }
}
