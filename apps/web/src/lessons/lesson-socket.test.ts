import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '@helix/shared';
import { aView, aViewMessage, aWelcome, FakeSocket } from './lesson.fixtures';
import { lessonSocket } from './lesson-socket';

const start = () => {
  const fake = new FakeSocket();
  const lesson = lessonSocket(fake);
  return { fake, lesson };
};

describe('lessonSocket: the connection state machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is connecting until the welcome, then live with the welcome state', () => {
    const { fake, lesson } = start();
    expect(lesson.getState().status).toBe('connecting');
    fake.connected = true;
    fake.fire('connect');
    expect(lesson.getState().status).toBe('connecting');
    fake.fire(
      'welcome',
      aWelcome({ role: 'teacher', you: 'teacher', mode: 'free', control: 'p2', view: aViewMessage(4) }),
    );
    const state = lesson.getState();
    expect(state).toMatchObject({ status: 'live', mode: 'free', control: 'p2', welcomes: 1 });
    expect(state.view?.seq).toBe(4);
  });

  it('goes reconnecting on a drop, keeps what it had, and is live again at the next welcome', () => {
    const { fake, lesson } = start();
    fake.open(aWelcome({ view: aViewMessage(3) }));
    fake.drop();
    expect(lesson.getState().status).toBe('reconnecting');
    expect(lesson.getState().view?.seq).toBe(3);
    // The resync: the lesson moved on meanwhile.
    fake.open(aWelcome({ view: aViewMessage(9), mode: 'free' }));
    expect(lesson.getState()).toMatchObject({ status: 'live', mode: 'free', welcomes: 2 });
    expect(lesson.getState().view?.seq).toBe(9);
  });

  it('keeps only newer views: one overtaken on the way is dropped', () => {
    const { fake, lesson } = start();
    fake.open(aWelcome());
    fake.fire('view', aViewMessage(5));
    fake.fire('view', aViewMessage(4));
    expect(lesson.getState().view?.seq).toBe(5);
    fake.fire('view', aViewMessage(6));
    expect(lesson.getState().view?.seq).toBe(6);
    // Not the contract's shape: ignored.
    fake.fire('view', { seq: 7, view: { camera: 'nonsense' } });
    expect(lesson.getState().view?.seq).toBe(6);
  });

  it('follows control, mode and the roster', () => {
    const { fake, lesson } = start();
    fake.open(aWelcome({ role: 'teacher', you: 'teacher' }));
    fake.fire('control', { pupilId: 'p1' });
    fake.fire('mode', { mode: 'free' });
    fake.fire('roster', { pupils: [{ id: 'p1', name: 'Ada', signedIn: false, connected: true }] });
    expect(lesson.getState()).toMatchObject({ control: 'p1', mode: 'free' });
    expect(lesson.getState().roster.map((p) => p.name)).toEqual(['Ada']);
  });

  it('is over for good on `over`, and never reconnects after it', () => {
    const { fake, lesson } = start();
    fake.open(aWelcome());
    fake.fire('over', { reason: 'removed' });
    expect(lesson.getState()).toMatchObject({ status: 'over', overReason: 'removed' });
    expect(fake.disconnects).toBe(1);
    fake.drop('io server disconnect');
    vi.advanceTimersByTime(60_000);
    expect(fake.connects).toBe(0);
    expect(lesson.getState().status).toBe('over');
  });

  it('reconnects by itself after the server closes it without `over` (a process going away)', () => {
    const { fake, lesson } = start();
    fake.open(aWelcome());
    fake.drop('io server disconnect');
    expect(lesson.getState().status).toBe('reconnecting');
    vi.advanceTimersByTime(1000);
    expect(fake.connects).toBe(1);
  });

  it('retries a refused connect with a growing delay, unless the refusal says the lesson is over', () => {
    const { fake, lesson } = start();
    fake.refuse();
    expect(lesson.getState().status).toBe('connecting');
    vi.advanceTimersByTime(1000);
    expect(fake.connects).toBe(1);
    fake.refuse();
    vi.advanceTimersByTime(1000);
    expect(fake.connects).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(fake.connects).toBe(2);
    fake.refuse({ reason: 'idle' });
    expect(lesson.getState()).toMatchObject({ status: 'over', overReason: 'idle' });
    vi.advanceTimersByTime(60_000);
    expect(fake.connects).toBe(2);
  });

  it('leaves a network failure to socket.io’s own reconnection', () => {
    const { fake, lesson } = start();
    fake.fire('connect_error', new Error('xhr poll error'));
    vi.advanceTimersByTime(60_000);
    expect(fake.connects).toBe(0);
    expect(lesson.getState().status).toBe('connecting');
  });

  it('sends views only while live, as volatile packets (never queued for later)', () => {
    const { fake, lesson } = start();
    lesson.sendView(aView(1));
    fake.open(aWelcome({ role: 'teacher', you: 'teacher' }));
    lesson.sendView(aView(2));
    fake.drop();
    lesson.sendView(aView(3));
    expect(fake.emitted).toEqual([
      { event: 'view', payload: { sentAt: expect.any(Number), view: aView(2) }, volatile: true },
    ]);
  });

  it('sends the teacher’s commands with an acknowledgement, and says so when none comes', async () => {
    const { fake, lesson } = start();
    expect(await lesson.setMode('free')).toEqual({ ok: false, message: MSG.lessonReconnecting });
    fake.open(aWelcome({ role: 'teacher', you: 'teacher' }));
    expect(await lesson.setControl('p1')).toEqual({ ok: true });
    fake.ack = { ok: false, message: MSG.lessonPupilGone };
    expect(await lesson.remove('p9')).toEqual({ ok: false, message: MSG.lessonPupilGone });
    fake.ack = new Error('operation has timed out');
    expect(await lesson.end()).toEqual({ ok: false, message: MSG.lessonNoAnswer });
    expect(fake.emitted.map((e) => [e.event, e.payload])).toEqual([
      ['control', { pupilId: 'p1' }],
      ['remove', { pupilId: 'p9' }],
      ['end', {}],
    ]);
  });

  it('gives React a new seat state only when something but the view changed', () => {
    const { fake, lesson } = start();
    fake.open(aWelcome());
    const listener = vi.fn();
    lesson.subscribe(listener);
    const seat = lesson.getSeat();
    fake.fire('view', aViewMessage(1));
    expect(listener).toHaveBeenCalledTimes(1);
    expect(lesson.getSeat()).toBe(seat);
    fake.fire('mode', { mode: 'free' });
    expect(lesson.getSeat()).not.toBe(seat);
    expect(lesson.getSeat().mode).toBe('free');
  });
});
