import type { LessonForPupil, LessonView, LessonViewMessage, LessonWelcome } from '@helix/shared/lessons';
import type { SocketLike } from './lesson-socket';

/** A view whose camera stands at x (the rest as a fresh viewer shows it). */
export const aView = (x: number): LessonView => ({
  camera: { position: [x, 0, 5], target: [0, 0, 0] },
  selected: null,
  hiddenParts: [],
  cutaway: null,
  labels: false,
  colours: {},
  pointer: null,
});

export const aViewMessage = (seq: number, x = seq, by = 'teacher'): LessonViewMessage => ({
  seq,
  by,
  sentAt: 0,
  view: aView(x),
});

/** A pupil's seat, the join's answer. */
export const aSeat = (over: Partial<LessonForPupil> = {}): LessonForPupil => ({
  lessonId: 'lesson-1',
  pupilId: 'p1',
  name: 'Ada Lovelace',
  modelName: 'Heart',
  socketToken: 'token',
  viewerUrl: 'https://viewer.helix.test/?mode=lesson',
  ...over,
});

export const aWelcome = (over: Partial<LessonWelcome> = {}): LessonWelcome => ({
  role: 'pupil',
  you: 'p1',
  lessonId: 'lesson-1',
  modelName: 'Heart',
  mode: 'follow',
  control: null,
  view: null,
  pupils: [],
  ...over,
});

type Handler = (...args: unknown[]) => void;

/**
 * A socket.io client socket as far as lesson-socket.ts uses it: the test plays the server (serverSends,
 * drop, refuse) and reads what the client emitted.
 */
export class FakeSocket implements SocketLike {
  connected = false;
  active = true;
  connects = 0;
  disconnects = 0;
  readonly emitted: Array<{ event: string; payload: unknown; volatile: boolean }> = [];
  /** The acknowledgement the server gives to the next commands. */
  ack: unknown = { ok: true };
  private handlers = new Map<string, Handler[]>();

  on(event: string, listener: (...args: never[]) => void) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), listener as Handler]);
    return this;
  }
  connect() {
    this.connects += 1;
    this.active = true;
    return this;
  }
  disconnect() {
    this.disconnects += 1;
    this.connected = false;
    this.active = false;
    return this;
  }
  readonly volatile = {
    emit: (event: string, payload: unknown) => {
      // socket.io drops a volatile packet while disconnected.
      if (this.connected) this.emitted.push({ event, payload, volatile: true });
    },
  };
  timeout() {
    return {
      emitWithAck: (event: string, payload: unknown) => {
        this.emitted.push({ event, payload, volatile: false });
        return this.ack instanceof Error ? Promise.reject(this.ack) : Promise.resolve(this.ack);
      },
    };
  }

  // ---- the server's side ----
  fire(event: string, ...args: unknown[]) {
    for (const handler of this.handlers.get(event) ?? []) handler(...args);
  }
  open(welcome: LessonWelcome) {
    this.connected = true;
    this.fire('connect');
    this.fire('welcome', welcome);
  }
  drop(reason = 'transport close') {
    this.connected = false;
    if (reason === 'io server disconnect') this.active = false;
    this.fire('disconnect', reason);
  }
  refuse(data?: unknown) {
    this.active = false;
    this.fire('connect_error', Object.assign(new Error('refused'), { data }));
  }
}
