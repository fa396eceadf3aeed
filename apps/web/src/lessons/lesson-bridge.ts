import type { LessonFrameMessage, LessonViewMessage } from '@helix/shared/lessons';
import {
  latestOnly,
  nextFrame,
  postToFrame,
  readFrameMessage,
  seatRole,
  viewThrottle,
  type FrameRole,
  type Schedule,
} from './lesson-relay';
import type { LessonSocket } from './lesson-socket';

export interface LessonBridgeOptions {
  socket: Pick<LessonSocket, 'getState' | 'subscribe' | 'sendView'>;
  /** The viewer frame's window (null while it is not there). */
  frame(): Window | null;
  /** The viewer's origin: the only one messages are taken from and sent to. */
  viewerOrigin: string;
  /** Where the frame's messages arrive (the page's window). */
  events?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  schedule?: Schedule;
}

/**
 * Relays one seat's lesson between its socket and its viewer frame, until the returned stop():
 * - leading: the frame's `lesson-view` reports go to the socket, 30 a second at most, the latest
 *   only, and the current one again after every (re)connect's welcome;
 * - following (or free): every view the lesson sends is applied in the frame, the latest once per
 *   frame; a seat that starts leading with no view of its own (the teacher's page reloaded) is shown
 *   the lesson's current view first, to go on from there;
 * - the frame's role and the connection's status are kept right, and told again whenever the frame
 *   (re)starts (`ready`).
 */
export function bridgeLesson(options: LessonBridgeOptions): () => void {
  const { socket, frame, viewerOrigin, events = window, schedule = nextFrame } = options;
  const post = (message: LessonFrameMessage) => postToFrame(frame(), viewerOrigin, message);
  const throttle = viewThrottle((view) => socket.sendView(view));
  const apply = latestOnly((message: LessonViewMessage) => {
    post({ source: 'helix-lesson', type: 'apply', view: message.view });
  }, schedule);

  let role: FrameRole | null = null;
  let status: 'live' | 'reconnecting' | 'over' | null = null;
  let welcomes = 0;
  let lastView: LessonViewMessage | null = null;

  const follows = () => role === 'follow' || role === 'free';
  /** The lesson's view into the frame where it belongs there. */
  const showLessonView = () => {
    const { view } = socket.getState();
    if (!view) return;
    if (follows() || (role === 'lead' && throttle.current() === null)) apply.push(view);
  };
  const tellFrame = () => {
    if (status) post({ source: 'helix-lesson', type: 'status', status });
    if (role) post({ source: 'helix-lesson', type: 'role', role });
    showLessonView();
  };

  const sync = () => {
    const state = socket.getState();
    const nextStatus = state.status === 'connecting' ? null : state.status;
    if (nextStatus !== status) {
      status = nextStatus;
      if (status) post({ source: 'helix-lesson', type: 'status', status });
    }
    const nextRole = seatRole(state);
    if (nextRole !== role) {
      role = nextRole;
      // Views this seat made before it led again are not the class's view any more.
      throttle.cancel();
      throttle.reset();
      if (role) post({ source: 'helix-lesson', type: 'role', role });
      showLessonView();
    }
    if (state.welcomes !== welcomes) {
      welcomes = state.welcomes;
      if (role === 'lead' && throttle.current() !== null) throttle.resend();
      else showLessonView();
    }
    if (state.view !== lastView) {
      lastView = state.view;
      if (follows() && state.view) apply.push(state.view);
    }
  };

  const onMessage = (event: MessageEvent) => {
    const report = readFrameMessage(event, frame(), viewerOrigin);
    if (!report) return;
    if (report.type === 'ready') tellFrame();
    else if (role === 'lead') throttle.push(report.view);
  };

  events.addEventListener('message', onMessage);
  const unsubscribe = socket.subscribe(sync);
  sync();
  return () => {
    events.removeEventListener('message', onMessage);
    unsubscribe();
    throttle.cancel();
    apply.stop();
  };
}
