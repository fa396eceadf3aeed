import type { LessonView } from '@helix/shared/lessons';
import { viewKey } from './lesson-view.ts';

export interface ViewReporterOptions {
  /** The view as it is now. */
  capture: () => LessonView;
  post: (view: LessonView) => void;
  /** The least time between two reports (ms): the server takes LESSON_LIMITS.viewsPerSecond. */
  minIntervalMs: number;
  now?: () => number;
  setTimer?: (run: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

/**
 * The leader's reports: rendered() is called after every drawn frame (so at most once a frame) and
 * reports the view as drawn when it differs from the last one reported. Reports are at least minIntervalMs
 * apart: the first change after a pause goes at once, changes meanwhile wait, and the view they end
 * at is always reported (a trailing report), so followers never stop short of the leader.
 */
export class ViewReporter {
  private sentKey: string | null = null;
  private sentAt = -Infinity;
  private timer: unknown = null;
  private waiting: LessonView | null = null;
  private readonly now: () => number;
  private readonly setTimer: (run: () => void, ms: number) => unknown;
  private readonly clearTimer: (timer: unknown) => void;

  constructor(private readonly options: ViewReporterOptions) {
    this.now = options.now ?? (() => performance.now());
    this.setTimer = options.setTimer ?? ((run, ms) => setTimeout(run, ms));
    this.clearTimer = options.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>));
  }

  /** A frame was drawn: the view as drawn is reported, now or at the end of the interval. */
  rendered(): void {
    this.report(this.options.capture());
  }

  private report(view: LessonView): void {
    const key = viewKey(view);
    if (key === this.sentKey) {
      this.waiting = null; // back where the last report left it: nothing to add
      return;
    }
    const wait = this.sentAt + this.options.minIntervalMs - this.now();
    if (wait > 0) {
      // The last frame's view (not the camera's now: it may have crept without being drawn).
      this.waiting = view;
      this.timer ??= this.setTimer(() => {
        this.timer = null;
        const waiting = this.waiting;
        this.waiting = null;
        if (waiting) this.report(waiting);
      }, wait);
      return;
    }
    this.sentKey = key;
    this.sentAt = this.now();
    this.options.post(view);
  }

  /** Forgets what was reported: the next frame reports the whole view (a new leader, a reconnect). */
  reset(): void {
    this.stop();
    this.sentKey = null;
    this.sentAt = -Infinity;
  }

  stop(): void {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    this.waiting = null;
  }
}
