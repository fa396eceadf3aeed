import { io } from 'socket.io-client';
import { MSG } from '@helix/shared';
import {
  LESSON_EVENTS,
  LESSON_SOCKET_PATH,
  LessonControlEvent,
  LessonModeEvent,
  LessonOverEvent,
  LessonRosterEvent,
  LessonViewMessage,
  LessonWelcome,
  type LessonAck,
  type LessonEndReason,
  type LessonMode,
  type LessonPupil,
  type LessonView,
  type LessonViewSend,
} from '@helix/shared/lessons';

/**
 * A seat's connection to its live lesson (teacher or pupil; packages/shared/src/lessons.ts): one
 * socket.io connection that reconnects by itself (socket.io's backoff), and the lesson as this seat
 * last heard it. The state is replaced, never patched, on each change, so React reads it with
 * useSyncExternalStore.
 *
 *   connecting ──welcome──> live ──drop──> reconnecting ──welcome──> live
 *        any ──over (or a refusal that says the lesson is over)──> over (final)
 *
 * A (re)connect is live only once the server's welcome has given the current state: until then the
 * seat shows what it had. Views sent while the connection is down are dropped (volatile), never
 * queued: the seat that leads sends its current view again after each welcome (lesson-relay.ts).
 */
export type LessonStatus = 'connecting' | 'live' | 'reconnecting' | 'over';

export interface LessonSocketState {
  status: LessonStatus;
  /** Why the lesson is over for this seat (status 'over'). */
  overReason: LessonEndReason | null;
  /** The last welcome: who this seat is, the model. */
  welcome: LessonWelcome | null;
  /** How many welcomes so far: a new one means a (re)connect to resync. */
  welcomes: number;
  mode: LessonMode;
  /** The pupil holding control, null when the teacher leads. */
  control: string | null;
  /** The teacher's roster (pupils get none). */
  roster: LessonPupil[];
  /** The lesson's current view, the newest heard (by seq). */
  view: LessonViewMessage | null;
}

/** What a page draws (everything but the view, which changes 30 times a second and is drawn by the frame). */
export type LessonSeatState = Omit<LessonSocketState, 'view'>;

export const INITIAL_LESSON_STATE: LessonSocketState = {
  status: 'connecting',
  overReason: null,
  welcome: null,
  welcomes: 0,
  mode: 'follow',
  control: null,
  roster: [],
  view: null,
};

type Listener = (...args: never[]) => void;

/** The part of socket.io-client's Socket this module uses (a fake one in the unit tests). */
export interface SocketLike {
  readonly connected: boolean;
  /** False once socket.io has given up on its own (a refused connect, a server disconnect). */
  readonly active: boolean;
  on(event: string, listener: Listener): unknown;
  connect(): unknown;
  disconnect(): unknown;
  readonly volatile: { emit(event: string, ...args: unknown[]): unknown };
  timeout(ms: number): { emitWithAck(event: string, ...args: unknown[]): Promise<unknown> };
}

export interface LessonSocket {
  getState(): LessonSocketState;
  /** The same without the view: a new object only when something else changed (for React). */
  getSeat(): LessonSeatState;
  subscribe(listener: () => void): () => void;
  /** The leader's view (dropped while disconnected; the server ignores it from a follower). */
  sendView(view: LessonView): void;
  /** Teacher: hand control to a pupil (null: take it back). */
  setControl(pupilId: string | null): Promise<LessonAck>;
  setMode(mode: LessonMode): Promise<LessonAck>;
  remove(pupilId: string): Promise<LessonAck>;
  end(): Promise<LessonAck>;
  /** Leaves (the page goes away): no reconnect. */
  close(): void;
}

/** How long a teacher's command waits for the server's acknowledgement. */
const ACK_TIMEOUT_MS = 8000;
/** Retrying a refused connect (socket.io does not retry those itself): from 1 s, doubling, up to 30 s. */
const RETRY_MIN_MS = 1000;
const RETRY_MAX_MS = 30_000;

function seatOf(state: LessonSocketState): LessonSeatState {
  const { view: _view, ...seat } = state;
  return seat;
}

/** The real connection: same origin, websocket only, the seat's token. */
export function openLessonSocket(token: string): LessonSocket {
  const socket = io({
    path: LESSON_SOCKET_PATH,
    transports: ['websocket'],
    auth: { token },
    reconnectionDelay: 500,
    reconnectionDelayMax: 5000,
  });
  return lessonSocket(socket as unknown as SocketLike);
}

/** The state machine over a socket (connected or connecting already). */
export function lessonSocket(socket: SocketLike): LessonSocket {
  let state = INITIAL_LESSON_STATE;
  let seat = seatOf(state);
  const listeners = new Set<() => void>();
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  let retries = 0;
  let closed = false;

  const set = (next: Partial<LessonSocketState>) => {
    state = { ...state, ...next };
    if (Object.keys(next).some((key) => key !== 'view')) seat = seatOf(state);
    for (const listener of listeners) listener();
  };
  const down = () => {
    if (state.status === 'over' || closed) return;
    if (state.status !== 'reconnecting' && state.status !== 'connecting') set({ status: 'reconnecting' });
  };
  const clearRetry = () => {
    if (retryTimer !== null) clearTimeout(retryTimer);
    retryTimer = null;
  };
  const over = (reason: LessonEndReason) => {
    clearRetry();
    if (state.status !== 'over') set({ status: 'over', overReason: reason });
    socket.disconnect();
  };
  /** A connect socket.io will not retry by itself: try again later, with our own backoff. */
  const retryLater = () => {
    if (retryTimer !== null || closed || state.status === 'over') return;
    const delay = Math.min(RETRY_MAX_MS, RETRY_MIN_MS * 2 ** retries);
    retries += 1;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      if (!closed && state.status !== 'over' && !socket.connected) socket.connect();
    }, delay);
  };

  socket.on(LESSON_EVENTS.welcome, (raw: unknown) => {
    const welcome = LessonWelcome.safeParse(raw);
    if (!welcome.success || state.status === 'over') return;
    retries = 0;
    const w = welcome.data;
    set({
      status: 'live',
      welcome: w,
      welcomes: state.welcomes + 1,
      mode: w.mode,
      control: w.control,
      roster: w.role === 'teacher' ? w.pupils : [],
      // The welcome's view is the lesson's current one: it replaces whatever this seat had.
      view: w.view ?? state.view,
    });
  });
  socket.on(LESSON_EVENTS.view, (raw: unknown) => {
    const message = LessonViewMessage.safeParse(raw);
    if (!message.success) return;
    // Older loses: a view overtaken on the way is dropped.
    if (state.view && message.data.seq <= state.view.seq) return;
    set({ view: message.data });
  });
  socket.on(LESSON_EVENTS.control, (raw: unknown) => {
    const event = LessonControlEvent.safeParse(raw);
    if (event.success && event.data.pupilId !== state.control) set({ control: event.data.pupilId });
  });
  socket.on(LESSON_EVENTS.mode, (raw: unknown) => {
    const event = LessonModeEvent.safeParse(raw);
    if (event.success && event.data.mode !== state.mode) set({ mode: event.data.mode });
  });
  socket.on(LESSON_EVENTS.roster, (raw: unknown) => {
    const event = LessonRosterEvent.safeParse(raw);
    if (event.success) set({ roster: event.data.pupils });
  });
  socket.on(LESSON_EVENTS.over, (raw: unknown) => {
    const event = LessonOverEvent.safeParse(raw);
    over(event.success ? event.data.reason : 'ended');
  });
  socket.on('disconnect', (reason: string) => {
    if (closed || state.status === 'over') return;
    down();
    // The server closed this seat without `over` (a process going away): socket.io leaves it to us.
    if (reason === 'io server disconnect') retryLater();
  });
  socket.on('connect_error', (error: Error & { data?: unknown }) => {
    if (closed || state.status === 'over') return;
    const refusal = LessonOverEvent.safeParse(error?.data);
    if (refusal.success) return over(refusal.data.reason);
    down();
    // A refused connect (the server's middleware) is not retried by socket.io; a network failure is.
    if (!socket.active) retryLater();
  });

  const command = async (event: string, payload: unknown): Promise<LessonAck> => {
    if (!socket.connected) return { ok: false, message: MSG.lessonReconnecting };
    try {
      const ack = (await socket.timeout(ACK_TIMEOUT_MS).emitWithAck(event, payload)) as LessonAck | null;
      return ack && typeof ack === 'object' && 'ok' in ack ? ack : { ok: false, message: MSG.lessonNoAnswer };
    } catch {
      return { ok: false, message: MSG.lessonNoAnswer };
    }
  };

  return {
    getState: () => state,
    getSeat: () => seat,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    sendView(view) {
      if (state.status !== 'live') return;
      const payload: LessonViewSend = { sentAt: Date.now(), view };
      socket.volatile.emit(LESSON_EVENTS.view, payload);
    },
    setControl: (pupilId) => command(LESSON_EVENTS.control, { pupilId }),
    setMode: (mode) => command(LESSON_EVENTS.mode, { mode }),
    remove: (pupilId) => command(LESSON_EVENTS.remove, { pupilId }),
    end: () => command(LESSON_EVENTS.end, {}),
    close() {
      closed = true;
      clearRetry();
      listeners.clear();
      socket.disconnect();
    },
  };
}
