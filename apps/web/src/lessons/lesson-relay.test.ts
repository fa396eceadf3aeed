import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aView, aWelcome } from './lesson.fixtures';
import { latestOnly, readFrameMessage, seatRole, viewThrottle } from './lesson-relay';

describe('seatRole', () => {
  const teacher = aWelcome({ role: 'teacher', you: 'teacher' });
  const pupil = aWelcome({ role: 'pupil', you: 'p1' });

  it('the teacher leads unless a pupil holds control, whatever the mode', () => {
    expect(seatRole({ welcome: teacher, control: null, mode: 'follow' })).toBe('lead');
    expect(seatRole({ welcome: teacher, control: null, mode: 'free' })).toBe('lead');
    expect(seatRole({ welcome: teacher, control: 'p1', mode: 'follow' })).toBe('follow');
  });

  it('a pupil leads with control, explores when set free, follows otherwise', () => {
    expect(seatRole({ welcome: pupil, control: 'p1', mode: 'free' })).toBe('lead');
    expect(seatRole({ welcome: pupil, control: 'p2', mode: 'follow' })).toBe('follow');
    expect(seatRole({ welcome: pupil, control: null, mode: 'free' })).toBe('free');
    expect(seatRole({ welcome: null, control: null, mode: 'follow' })).toBeNull();
  });
});

describe('viewThrottle: at most 30 views a second, the latest only', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends the first view at once and one trailing send of the last of a burst', () => {
    const sent: number[] = [];
    const throttle = viewThrottle((view) => sent.push(view.camera.position[0]));
    for (let x = 1; x <= 10; x += 1) throttle.push(aView(x));
    expect(sent).toEqual([1]);
    vi.advanceTimersByTime(34);
    expect(sent).toEqual([1, 10]);
    // Nothing new: nothing more.
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual([1, 10]);
  });

  it('never sends two views closer than 1/30 s under a steady 120 views a second, and ends on the last view', () => {
    const sent: Array<{ x: number; at: number }> = [];
    const throttle = viewThrottle((view) => sent.push({ x: view.camera.position[0], at: Date.now() }));
    for (let i = 1; i <= 120; i += 1) {
      throttle.push(aView(i));
      vi.advanceTimersByTime(1000 / 120);
    }
    vi.advanceTimersByTime(100);
    const gaps = sent.slice(1).map((s, i) => s.at - sent[i]!.at);
    // Whole milliseconds on the fake clock: 33.3 ms becomes 33 or 34.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(33);
    expect(sent.length).toBeGreaterThanOrEqual(29);
    expect(sent.at(-1)!.x).toBe(120);
    expect(sent.map((s) => s.x)).toEqual([...sent.map((s) => s.x)].sort((a, b) => a - b));
  });

  it('resends the current view on demand (a reconnect), and forgets it on reset', () => {
    const sent: number[] = [];
    const throttle = viewThrottle((view) => sent.push(view.camera.position[0]));
    throttle.resend();
    expect(sent).toEqual([]);
    throttle.push(aView(7));
    throttle.resend();
    expect(sent).toEqual([7, 7]);
    throttle.reset();
    throttle.resend();
    expect(sent).toEqual([7, 7]);
    expect(throttle.current()).toBeNull();
  });

  it('drops a pending trailing send when cancelled', () => {
    const sent: number[] = [];
    const throttle = viewThrottle((view) => sent.push(view.camera.position[0]));
    throttle.push(aView(1));
    throttle.push(aView(2));
    throttle.cancel();
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual([1]);
  });
});

describe('latestOnly', () => {
  it('posts the last value once per scheduled frame', () => {
    const frames: Array<() => void> = [];
    const posted: number[] = [];
    const apply = latestOnly(
      (n: number) => posted.push(n),
      (run) => frames.push(run),
    );
    apply.push(1);
    apply.push(2);
    apply.push(3);
    expect(frames).toHaveLength(1);
    frames.shift()!();
    expect(posted).toEqual([3]);
    apply.push(4);
    apply.stop();
    frames.shift()!();
    expect(posted).toEqual([3]);
  });
});

describe('readFrameMessage', () => {
  const frame = {} as Window;
  const origin = 'http://viewer.test';
  const view = { source: 'helix-viewer', type: 'lesson-view', view: aView(1) };

  it('takes the frame’s lesson views and ready, from its window and the viewer’s origin only', () => {
    expect(readFrameMessage({ source: frame, origin, data: view }, frame, origin)).toEqual({
      type: 'view',
      view: aView(1),
    });
    expect(
      readFrameMessage(
        { source: frame, origin, data: { source: 'helix-viewer', type: 'ready' } },
        frame,
        origin,
      ),
    ).toEqual({ type: 'ready' });
    expect(readFrameMessage({ source: {} as Window, origin, data: view }, frame, origin)).toBeNull();
    expect(
      readFrameMessage({ source: frame, origin: 'http://evil.test', data: view }, frame, origin),
    ).toBeNull();
    expect(readFrameMessage({ source: frame, origin, data: view }, null, origin)).toBeNull();
  });

  it('refuses a view that is not the contract’s shape', () => {
    const bad = { ...view, view: { ...aView(1), camera: { position: [Infinity, 0, 0], target: [0, 0, 0] } } };
    expect(readFrameMessage({ source: frame, origin, data: bad }, frame, origin)).toBeNull();
    expect(readFrameMessage({ source: frame, origin, data: 'lesson-view' }, frame, origin)).toBeNull();
  });
});
