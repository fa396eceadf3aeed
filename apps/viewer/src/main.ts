import './styles.css';
import type { EmbedFlag } from '@helix/shared/embed';
import { ModelLoadError } from './load-model.ts';
import { offlineModeOf, registerOfflineViewer } from './offline-copy.ts';
import { parseViewerParams } from './params.ts';
import { findModel } from './start/find-model.ts';
import { showModel } from './start/show-model.ts';
import { createViewerState, notifyParent, setViewerState, showFailure } from './start/viewer-report.ts';
import { applyLayout } from './viewer-state.ts';

const state = createViewerState();

// The viewer's code in three parts, all downloading from the first byte: this small script (which asks
// the API for the model at once), three.js (most of the code: it downloads and compiles while the model
// is looked up and its file downloaded) and the controls around the model (start/viewer-ui.ts).
const sceneRuntime = import('./scene/scene-runtime.ts');
sceneRuntime.catch(() => undefined); // awaited (and reported) in start()
const viewerUi = import('./start/viewer-ui.ts');
viewerUi.catch(() => undefined); // the same
// A live lesson's frame only: the lesson bridge (lesson/), its own chunk with the lesson's schemas.
const lessonBridge = /[?&]currentmode=lesson(&|$)/.test(location.search)
  ? import('./lesson/lesson-bridge.ts')
  : null;
lessonBridge?.catch(() => undefined); // the same

/**
 * One page load of the viewer: which model (findModel: the API's one call), the model shown
 * (showModel), the controls of the link's features around it (buildViewerUi), then the first frame
 * and the framing page told it is ready. A failure at any step shows its message (showFailure).
 */
async function start(): Promise<void> {
  setViewerState('loading');
  const app = document.getElementById('app')!;
  const params = parseViewerParams(location.search);
  state.mode = params.currentmode;

  const offline = offlineModeOf(location.search);
  if (offline === 'prepare') {
    // The portal is pinning a model: it only needs this app cached for offline use.
    notifyParent({ type: (await registerOfflineViewer()) ? 'offline-ready' : 'offline-unavailable' });
    return;
  }
  // The portal's modal keeps the viewer's app cached, so a pinned model opens without network.
  if (params.currentmode === 'standard') void registerOfflineViewer();

  try {
    const source = await findModel(params, offline);
    const flags = new Set<EmbedFlag>(source.settings);
    state.settings = [...source.settings];
    document.body.dataset.mode = source.mode;
    applyLayout(flags);

    const shown = await showModel(app, state, params, source, flags, sceneRuntime);
    const { buildViewerUi } = await viewerUi.catch((e: unknown) => {
      throw new ModelLoadError('network', 0, (e as Error)?.message);
    });
    const ui = buildViewerUi(app, state, params, source, flags, shown);
    if (lessonBridge && params.currentmode === 'lesson') {
      const { startLesson } = await lessonBridge.catch((e: unknown) => {
        throw new ModelLoadError('network', 0, (e as Error)?.message);
      });
      // Listening before `ready` is posted: the lesson page speaks once the viewer is ready.
      await startLesson({
        stage: shown.stage,
        viewer: shown.viewer,
        ui,
        state,
        collapsed: flags.has('hide_modal'),
      });
    }
    ui.sync();
    shown.viewer.renderNow();
    performance.mark('viewer:ready');
    shown.loading.remove();
  } catch (e) {
    showFailure(state, app, e);
    return;
  }
  state.ready = true;
  setViewerState('ready');
  notifyParent({
    type: 'ready',
    model: params.model,
    version: params.version,
    parts: state.partNames.length,
  });
}

void start();
