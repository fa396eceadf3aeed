import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { safeFrameUrl } from '../models/share-links';
import { bridgeLesson } from './lesson-bridge';
import { seatRole, type FrameRole } from './lesson-relay';
import {
  INITIAL_LESSON_STATE,
  openLessonSocket,
  type LessonSeatState,
  type LessonSocket,
} from './lesson-socket';

const INITIAL_SEAT: LessonSeatState = (({ view: _view, ...seat }) => seat)(INITIAL_LESSON_STATE);
const nothing = () => () => undefined;

export interface LessonSeat {
  /** The viewer frame's element: the page renders `<iframe ref={frame} src={frameUrl}>`. */
  frame: React.RefObject<HTMLIFrameElement | null>;
  /** The viewer's address, accepted only as http(s); null when the server's is not one. */
  frameUrl: string | null;
  /** The connection's commands (the teacher's); null before it opens. */
  socket: LessonSocket | null;
  /** The lesson as this seat last heard it (everything but the view: the frame draws that). */
  seat: LessonSeatState;
  /** What this seat's frame does now; null before the first welcome. */
  role: FrameRole | null;
}

/**
 * One seat of a live lesson in a page (the teacher's and the pupil's): its socket, open while the page
 * is, and the relay between that socket and the page's viewer frame (lesson-bridge.ts).
 */
export function useLessonSeat(token: string | null, viewerUrl: string | null): LessonSeat {
  const frame = useRef<HTMLIFrameElement>(null);
  const frameUrl = useMemo(
    () => (viewerUrl ? safeFrameUrl(viewerUrl, window.location.origin) : null),
    [viewerUrl],
  );
  const viewerOrigin = frameUrl ? new URL(frameUrl).origin : null;

  const [socket, setSocket] = useState<LessonSocket | null>(null);
  useEffect(() => {
    if (!token) return;
    const opened = openLessonSocket(token);
    setSocket(opened);
    return () => {
      opened.close();
      setSocket(null);
    };
  }, [token]);

  useEffect(() => {
    if (!socket || !viewerOrigin) return;
    return bridgeLesson({ socket, viewerOrigin, frame: () => frame.current?.contentWindow ?? null });
  }, [socket, viewerOrigin]);

  const seat = useSyncExternalStore(
    socket?.subscribe ?? nothing,
    () => socket?.getSeat() ?? INITIAL_SEAT,
    () => INITIAL_SEAT,
  );
  return { frame, frameUrl, socket, seat, role: seatRole(seat) };
}
