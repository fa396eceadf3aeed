import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LessonFrameMessage, LessonView, LessonWelcome } from '@helix/shared/lessons';
import { aView, aViewMessage, aWelcome, FakeSocket } from './lesson.fixtures';
import { bridgeLesson } from './lesson-bridge';
import { lessonSocket } from './lesson-socket';

const VIEWER = 'http://viewer.test';

/** A seat's page: its socket (played by the test), its frame's window, and the frames it has drawn. */
function seat() {
  const fake = new FakeSocket();
  const socket = lessonSocket(fake);
  const posted: Array<{ message: LessonFrameMessage; origin: string }> = [];
  const frame = {
    postMessage: (message: LessonFrameMessage, origin: string) => posted.push({ message, origin }),
  } as unknown as Window;
  const page = new EventTarget();
  const frames: Array<() => void> = [];
  const stop = bridgeLesson({
    socket,
    frame: () => frame,
    viewerOrigin: VIEWER,
    events: page as unknown as Window,
    schedule: (run) => frames.push(run),
  });
  const fromFrame = (data: unknown, origin = VIEWER, source: unknown = frame) =>
    page.dispatchEvent(Object.assign(new Event('message'), { data, origin, source }));
  return {
    fake,
    stop,
    /** The frame reports its view (as its leader). */
    moves: (view: LessonView) => fromFrame({ source: 'helix-viewer', type: 'lesson-view', view }),
    fromFrame,
    /** The next animation frame. */
    paint: () => frames.splice(0).forEach((run) => run()),
    posted: () => posted.splice(0).map((p) => (expect(p.origin).toBe(VIEWER), p.message)),
    sentViews: () =>
      fake.emitted
        .filter((e) => e.event === 'view')
        .map((e) => (e.payload as { view: LessonView }).view.camera.position[0]),
  };
}

const teacherWelcome = (over: Partial<LessonWelcome> = {}) =>
  aWelcome({ role: 'teacher', you: 'teacher', ...over });
const apply = (x: number) => ({ source: 'helix-lesson', type: 'apply', view: aView(x) });
const role = (r: string) => ({ source: 'helix-lesson', type: 'role', role: r });
const status = (s: string) => ({ source: 'helix-lesson', type: 'status', status: s });

describe('bridgeLesson: the seat that leads', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('tells its frame to lead and sends the frame’s views, coalesced, the last one always', () => {
    const t = seat();
    t.fake.open(teacherWelcome());
    expect(t.posted()).toEqual([status('live'), role('lead')]);
    for (let x = 1; x <= 5; x += 1) t.moves(aView(x));
    expect(t.sentViews()).toEqual([1]);
    vi.advanceTimersByTime(50);
    expect(t.sentViews()).toEqual([1, 5]);
  });

  it('sends its current view again after a reconnect, and nothing while down', () => {
    const t = seat();
    t.fake.open(teacherWelcome());
    t.moves(aView(1));
    t.fake.drop();
    vi.advanceTimersByTime(100);
    t.moves(aView(2));
    vi.advanceTimersByTime(100);
    expect(t.posted()).toEqual([status('live'), role('lead'), status('reconnecting')]);
    expect(t.sentViews()).toEqual([1]);
    t.fake.open(teacherWelcome({ view: aViewMessage(1, 1) }));
    expect(t.sentViews()).toEqual([1, 2]);
    expect(t.posted()).toEqual([status('live')]);
  });

  it('ignores messages from other windows or origins', () => {
    const t = seat();
    t.fake.open(teacherWelcome());
    t.fromFrame({ source: 'helix-viewer', type: 'lesson-view', view: aView(9) }, 'http://evil.test');
    t.fromFrame({ source: 'helix-viewer', type: 'lesson-view', view: aView(9) }, VIEWER, {});
    vi.advanceTimersByTime(100);
    expect(t.sentViews()).toEqual([]);
  });

  it('a reloaded teacher’s frame is first shown the lesson’s current view, to go on from there', () => {
    const t = seat();
    t.fake.open(teacherWelcome({ view: aViewMessage(8, 8) }));
    t.paint();
    expect(t.posted()).toEqual([status('live'), role('lead'), apply(8)]);
  });
});

describe('bridgeLesson: the seats that follow', () => {
  it('applies every view it is sent in its frame, the latest once per frame', () => {
    const p = seat();
    p.fake.open(aWelcome({ view: aViewMessage(1) }));
    p.paint();
    expect(p.posted()).toEqual([status('live'), role('follow'), apply(1)]);
    p.fake.fire('view', aViewMessage(2));
    p.fake.fire('view', aViewMessage(3));
    p.paint();
    expect(p.posted()).toEqual([apply(3)]);
    // Its own frame's reports are not sent: a follower does not lead.
    p.moves(aView(42));
    expect(p.sentViews()).toEqual([]);
  });

  it('keeps its frame’s role right as control and mode change', () => {
    const p = seat();
    p.fake.open(aWelcome({ you: 'p1' }));
    p.posted();
    p.fake.fire('mode', { mode: 'free' });
    expect(p.posted()).toEqual([role('free')]);
    p.fake.fire('control', { pupilId: 'p1' });
    expect(p.posted()).toEqual([role('lead')]);
    p.moves(aView(5));
    expect(p.sentViews()).toEqual([5]);
    p.fake.fire('control', { pupilId: null });
    p.fake.fire('mode', { mode: 'follow' });
    p.fake.fire('view', aViewMessage(10));
    p.paint();
    expect(p.posted()).toEqual([role('free'), role('follow'), apply(10)]);
  });

  it('a teacher follows the pupil given control, then leads again from there', () => {
    const t = seat();
    t.fake.open(teacherWelcome());
    t.moves(aView(1));
    t.posted();
    t.fake.fire('control', { pupilId: 'p1' });
    t.fake.fire('view', aViewMessage(5, 5, 'p1'));
    t.paint();
    expect(t.posted()).toEqual([role('follow'), apply(5)]);
    t.fake.fire('control', { pupilId: null });
    expect(t.posted()).toEqual([role('lead')]);
    // A reconnect before the teacher moves again does not send the view from before the hand-over.
    t.fake.drop();
    t.fake.open(teacherWelcome({ view: aViewMessage(5, 5, 'p1') }));
    t.paint();
    expect(t.sentViews()).toEqual([1]);
  });

  it('tells a (re)started frame its role, the status and the current view', () => {
    const p = seat();
    p.fake.open(aWelcome({ view: aViewMessage(4) }));
    p.paint();
    p.posted();
    p.fromFrame({ source: 'helix-viewer', type: 'ready' });
    p.paint();
    expect(p.posted()).toEqual([status('live'), role('follow'), apply(4)]);
  });

  it('tells the frame the lesson is over, and stops relaying once stopped', () => {
    const p = seat();
    p.fake.open(aWelcome());
    p.posted();
    p.fake.fire('over', { reason: 'ended' });
    expect(p.posted()).toEqual([status('over')]);
    p.stop();
    p.fromFrame({ source: 'helix-viewer', type: 'ready' });
    expect(p.posted()).toEqual([]);
  });
});
