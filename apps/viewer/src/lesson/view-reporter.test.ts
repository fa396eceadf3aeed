import type { LessonView } from '@helix/shared/lessons';
import { describe, expect, it } from 'vitest';
import { ViewReporter } from './view-reporter.ts';

const at = (z: number, selected: string | null = null): LessonView => ({
  camera: { position: [0, 0, z], target: [0, 0, 0] },
  selected,
  hiddenParts: [],
  cutaway: null,
  labels: false,
  colours: {},
  pointer: null,
});

/** A reporter on a hand-driven clock and timers. */
function setup() {
  let now = 0;
  let current = at(5);
  const timers: { at: number; run: () => void }[] = [];
  const posted: LessonView[] = [];
  const postedAt: number[] = [];
  const reporter = new ViewReporter({
    capture: () => current,
    post: (v) => {
      posted.push(v);
      postedAt.push(now);
    },
    minIntervalMs: 33,
    now: () => now,
    setTimer: (run, ms) => {
      const t = { at: now + ms, run };
      timers.push(t);
      return t;
    },
    clearTimer: (t) => timers.splice(timers.indexOf(t as (typeof timers)[number]), 1),
  });
  const advance = (ms: number) => {
    now += ms;
    for (const t of timers.filter((x) => x.at <= now)) {
      timers.splice(timers.indexOf(t), 1);
      t.run();
    }
  };
  return { reporter, posted, postedAt, timers, advance, set: (v: LessonView) => (current = v) };
}

describe('ViewReporter', () => {
  it('reports the first view, then only changes', () => {
    const { reporter, posted, advance } = setup();
    reporter.rendered();
    expect(posted).toEqual([at(5)]);
    advance(100);
    reporter.rendered();
    reporter.rendered();
    expect(posted).toHaveLength(1);
  });

  it('reports a change after a pause at once, and changes meanwhile at most every interval, ending on the last view', () => {
    const { reporter, posted, postedAt, advance, set, timers } = setup();
    reporter.rendered();
    // A drag: a new camera every 16 ms frame for 20 frames.
    for (let i = 1; i <= 20; i++) {
      advance(16);
      set(at(5 + i / 10));
      reporter.rendered();
    }
    // 320 ms of frames: reports at least 33 ms apart (fewer than the 20 frames), and no longer apart
    // than an interval plus a frame (the camera kept moving).
    expect(posted.length).toBeLessThan(20);
    const gaps = postedAt.slice(1).map((t, i) => t - postedAt[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(33);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(33 + 16);
    // The drag stops: the trailing report sends where it ended, without another frame.
    advance(40);
    expect(posted.at(-1)).toEqual(at(7));
    expect(timers).toHaveLength(0);
    // A selection after a pause goes at once.
    advance(500);
    set(at(7, 'Nucleus'));
    reporter.rendered();
    expect(posted.at(-1)).toEqual(at(7, 'Nucleus'));
  });

  it('reports the view as last drawn, and nothing when it went back to the one reported', () => {
    const { reporter, posted, advance, set } = setup();
    reporter.rendered();
    advance(10);
    set(at(6));
    reporter.rendered();
    // Changed again after that frame, without a frame drawn: the drawn view is the one reported.
    set(at(6.5));
    advance(40);
    expect(posted).toEqual([at(5), at(6)]);
    // Moved away and back within the interval: nothing new to report.
    set(at(7));
    reporter.rendered();
    set(at(6));
    reporter.rendered();
    advance(40);
    expect(posted).toEqual([at(5), at(6)]);
  });

  it('reset() makes the next frame report the whole view again (a new leader); stop() drops a trailing report', () => {
    const { reporter, posted, advance, set } = setup();
    reporter.rendered();
    reporter.reset();
    reporter.rendered();
    expect(posted).toHaveLength(2);
    set(at(6));
    reporter.rendered();
    reporter.stop();
    advance(100);
    expect(posted).toHaveLength(2);
  });
});
