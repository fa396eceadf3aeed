import { ViewerLessonMessage, type LessonFrameMessage, type LessonView } from '@helix/shared/lessons';
import type { LessonSocketState } from './lesson-socket';

/**
 * The page between the lesson's socket and its viewer frame (packages/shared/src/lessons.ts): the
 * frame's views go to the socket while this seat leads, the lesson's views go to the frame while it
 * follows. Views are whole states, so every hop keeps the latest one only.
 */

export type FrameRole = 'lead' | 'follow' | 'free';

/**
 * What this seat's frame does now: the teacher leads unless a pupil holds control; the pupil holding
 * control leads; the others follow, or explore on their own when the class is set free. Null before
 * the first welcome (nobody knows yet).
 */
export function seatRole(state: Pick<LessonSocketState, 'welcome' | 'control' | 'mode'>): FrameRole | null {
  const { welcome, control, mode } = state;
  if (!welcome) return null;
  if (welcome.role === 'teacher') return control === null ? 'lead' : 'follow';
  if (control === welcome.you) return 'lead';
  return mode === 'free' ? 'free' : 'follow';
}

/** The teacher's camera at 30 views a second (LESSON_LIMITS.viewsPerSecond leaves some slack). */
const VIEWS_PER_SECOND = 30;

export interface ViewThrottle {
  /** A new view: sent now if the last send is old enough, else once it is (the latest one). */
  push(view: LessonView): void;
  /** Sends the current view now (after a reconnect), whatever the pace. */
  resend(): void;
  /** The latest view pushed. */
  current(): LessonView | null;
  /** Drops a send waiting for its turn. */
  cancel(): void;
  /** Forgets the latest view (this seat no longer leads with it). */
  reset(): void;
}

/**
 * At most `perSecond` sends, the latest view only: a burst of views becomes one send now and one
 * trailing send of the last view, so the view the leader stopped on always arrives.
 */
export function viewThrottle(send: (view: LessonView) => void, perSecond = VIEWS_PER_SECOND): ViewThrottle {
  const interval = 1000 / perSecond;
  let latest: LessonView | null = null;
  let waiting = false;
  let lastSentAt = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = () => {
    timer = null;
    if (!waiting || latest === null) return;
    waiting = false;
    lastSentAt = Date.now();
    send(latest);
  };
  return {
    push(view) {
      latest = view;
      waiting = true;
      if (timer !== null) return;
      const wait = lastSentAt + interval - Date.now();
      if (wait <= 0) flush();
      else timer = setTimeout(flush, wait);
    },
    resend() {
      if (latest === null) return;
      if (timer !== null) clearTimeout(timer);
      waiting = true;
      flush();
    },
    current: () => latest,
    cancel() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      waiting = false;
    },
    reset() {
      latest = null;
    },
  };
}

/** Runs a callback on the next frame (requestAnimationFrame; a timer where there is none). */
export type Schedule = (run: () => void) => void;

export const nextFrame: Schedule = (run) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
  else setTimeout(run, 16);
};

/**
 * Posts the latest of many values once per frame: a follower whose tablet is slow shows the newest
 * view on its next frame instead of working through every one it was sent.
 */
export function latestOnly<T>(post: (value: T) => void, schedule: Schedule = nextFrame) {
  let pending: { value: T } | null = null;
  let scheduled = false;
  let stopped = false;
  return {
    push(value: T) {
      pending = { value };
      if (scheduled) return;
      scheduled = true;
      schedule(() => {
        scheduled = false;
        const next = pending;
        pending = null;
        if (next && !stopped) post(next.value);
      });
    },
    stop() {
      stopped = true;
      pending = null;
    },
  };
}

/** What the viewer frame said, once checked: a view it reports as leader, or that it has started. */
export type FrameReport = { type: 'view'; view: LessonView } | { type: 'ready' };

/**
 * A message from the viewer frame, accepted only from that frame's window and the viewer's origin, and
 * only in the contract's shape (ViewerLessonMessage): anything else is another page's business.
 */
export function readFrameMessage(
  event: Pick<MessageEvent, 'source' | 'origin' | 'data'>,
  frame: Window | null | undefined,
  viewerOrigin: string,
): FrameReport | null {
  if (!frame || event.source !== frame || event.origin !== viewerOrigin) return null;
  const data = event.data as { source?: unknown; type?: unknown } | null;
  if (data?.source !== 'helix-viewer') return null;
  if (data.type === 'ready') return { type: 'ready' };
  const message = ViewerLessonMessage.safeParse(data);
  return message.success ? { type: 'view', view: message.data.view } : null;
}

/** Posts a lesson message to the viewer frame, to the viewer's origin only. */
export function postToFrame(
  frame: Window | null | undefined,
  viewerOrigin: string,
  message: LessonFrameMessage,
) {
  frame?.postMessage(message, viewerOrigin);
}
