import { LESSON_LIMITS, type LessonView } from '@helix/shared/lessons';
import { readApiUrl } from '../api-config.ts';
import type { Viewer3D } from '../scene/viewer-3d.ts';
import type { ViewerUi } from '../start/viewer-ui.ts';
import type { ViewerTestState } from '../viewer-state.ts';
import { lessonViewMessage, readFrameMessage } from './frame-messages.ts';
import { LatestPerFrame } from './latest-per-frame.ts';
import { ViewerLessonScene } from './lesson-scene.ts';
import { lessonStatusLine, type LessonRole, type LessonStatus } from './lesson-status.ts';
import { lessonTools } from './lesson-tools.ts';
import { applyView, captureView } from './lesson-view.ts';
import { PointerTool } from './pointer-tool.ts';
import { ViewReporter } from './view-reporter.ts';

/** A leader's reports per second at most: the 30 camera updates, within what the server takes. */
const REPORTS_PER_SECOND = Math.min(30, LESSON_LIMITS.viewsPerSecond);
/** The pointer's colour: a laser pointer's, whatever the model's colours. */
const POINTER_COLOUR = '#ff2d55';

export interface LessonHost {
  stage: HTMLElement;
  viewer: Viewer3D;
  ui: ViewerUi;
  state: ViewerTestState;
  /** The panels start collapsed (hide_modal, or the compact layout). */
  collapsed: boolean;
}

/**
 * The viewer's side of a live lesson (mode 'lesson'; apps/viewer/README.md, "Live lessons"): the lesson page that
 * frames it (its parent, on the portal's origin) says the role and the connection's status and hands
 * over the leader's views (LessonFrameMessage); the viewer reports its own view when it leads
 * (ViewerLessonMessage).
 *
 * - lead: the user's input works; the view is reported after the frames where it changed.
 * - follow (the start): input that changes the view is off; each `apply` is shown, the latest one at
 *   the next frame (coalesced), the camera eased.
 * - free: input on, nothing reported; `apply`s are kept, and the latest is shown on the next follow.
 * - status: reconnecting shows a line over the model (input unchanged); over ends the lesson here:
 *   the model stays, free to turn, and further messages are ignored.
 */
export async function startLesson(host: LessonHost): Promise<void> {
  const { stage, viewer, ui, state } = host;
  const parent = window.parent !== window ? window.parent : null;
  // The portal is served by the API's origin (api-config.ts), as for the offline copy's hand-over.
  const portalOrigin = await readApiUrl();

  const scene = new ViewerLessonScene(viewer, ui.labels, POINTER_COLOUR);
  let role: LessonRole = 'follow';
  let status: LessonStatus = 'live';
  /** The latest view handed over (kept while free, shown again on follow). */
  let latest: LessonView | null = null;
  const statusLine = lessonStatusLine(stage);

  const refresh = () => {
    ui.sync();
    tools.sync();
    statusLine.show(role, status);
    viewer.invalidate();
  };
  const pointer = new PointerTool(viewer, scene, refresh);
  const tools = lessonTools({
    viewer,
    scene,
    pointer,
    canPoint: () => role === 'lead',
    collapsed: host.collapsed,
    onChange: refresh,
  });
  ui.addPanel(tools.el);

  // Applied at the start of the viewer's next frame, so that frame draws it.
  const applier = new LatestPerFrame<LessonView>(
    (view) => {
      applyView(scene, view);
      state.lessonViewsApplied++;
      refresh();
    },
    (callback) => viewer.nextFrame(callback),
  );
  const reporter = new ViewReporter({
    capture: () => captureView(scene),
    post: (view) => {
      parent?.postMessage(lessonViewMessage(view), portalOrigin);
      state.lessonViewsPosted++;
    },
    minIntervalMs: 1000 / REPORTS_PER_SECOND,
  });

  viewer.onRender(() => {
    if (role === 'lead' && status !== 'over') reporter.rendered();
    state.cutaway = scene.cutaway();
    state.colours = scene.colours();
    state.pointer = scene.pointer();
  });

  const setRole = (next: LessonRole) => {
    // A view handed over before the role changed is still shown (messages keep their order).
    if (role === 'follow' && next !== 'follow') applier.flush();
    role = next;
    viewer.setLocked(next === 'follow');
    if (next !== 'lead') {
      reporter.stop();
      pointer.setActive(false);
    }
    if (next === 'lead') reporter.reset(); // the whole view is reported at the next frame
    // Free: the leader's pointer is not shown over the pupil's own view; follow shows it again.
    if (next === 'free') scene.setPointer(null);
    if (next === 'follow' && latest) applier.push(latest);
    document.body.dataset.lessonRole = next;
    state.lessonRole = next;
    refresh();
  };

  const setStatus = (next: LessonStatus) => {
    if (next === 'over') setRole('free');
    status = next;
    document.body.dataset.lessonStatus = next;
    state.lessonStatus = next;
    refresh();
  };

  window.addEventListener('message', (event) => {
    if (status === 'over') return;
    const message = readFrameMessage(event, { parent, origin: portalOrigin });
    if (!message) return;
    if (message.type === 'role') {
      if (message.role !== role) setRole(message.role);
    } else if (message.type === 'status') {
      if (message.status !== status) setStatus(message.status);
    } else if (role !== 'lead') {
      // The leader's own view is the lesson's: an echo of an older one never pulls it back.
      latest = message.view;
      if (role === 'follow') applier.push(message.view);
    }
  });

  state.lessonStatus = status;
  document.body.dataset.lessonStatus = status;
  setRole('follow');
}
