import './styles.css';
import type { EmbedFlag } from '@helix/shared/embed';
import type { GLTF } from 'three/addons/loaders/GLTFLoader.js';
import { readAllowSrc, readApiUrl } from './api-config.ts';
import { createApiLookup } from './api-lookup.ts';
import { fetchModel, ModelLoadError } from './load-model.ts';
import { hintedModelUrl } from './model-hint.ts';
import { offlineModeOf, receiveOfflineCopy, registerOfflineViewer } from './offline-copy.ts';
import { resolveModelSource, type ModelSource } from './model-source.ts';
import { parseViewerParams } from './params.ts';
import type { Viewer3D } from './scene/viewer-3d.ts';
import { MSG } from '@helix/shared/messages';
import { h } from './ui/dom.ts';
import { DrawLayer } from './ui/draw-layer.ts';
import { LabelLayer } from './ui/labels.ts';
import { LoadingOverlay, messageOverlay } from './ui/overlays.ts';
import { infoPanel, layersPanel, setPanelOpen, tocPanel, type SyncedPanel } from './ui/panels.ts';
import { detectArMode, metersPerUnitOf } from './ar/ar-support.ts';
import { askToRecord } from './record/record-permission.ts';
import { arControl } from './ui/ar-control.ts';
import { partsOutline } from './ui/parts-outline.ts';
import { recordControl } from './ui/record-control.ts';
import { bindKeyboard, buildToolbar } from './ui/toolbar.ts';
import { applyBackground, applyLayout, type ViewerTestState } from './viewer-state.ts';

declare global {
  interface Window {
    __viewer: ViewerTestState;
  }
}

const state: ViewerTestState = {
  ready: false,
  error: null,
  errorKind: null,
  partNames: [],
  settings: [],
  mode: 'embedding',
  playing: false,
  labelsVisible: false,
  centred: false,
  cameraDistance: 0,
  highlighted: null,
  transparent: false,
  recording: null,
  ar: null,
  arState: 'idle',
  reducedMotion: false,
  flights: 0,
  cameraPosition: [0, 0, 0],
  cameraTarget: [0, 0, 0],
};
window.__viewer = state;

// three.js is most of the viewer's code: it downloads and compiles while the model is looked up and
// its file downloaded (see start()), rather than before either can begin.
const sceneRuntime = import('./scene/scene-runtime.ts');
sceneRuntime.catch(() => undefined); // awaited (and reported) in start()

const setViewerState = (s: 'loading' | 'ready' | 'error') => (document.body.dataset.viewerState = s);

/**
 * Tells the framing page (portal modal, share/embed page) what happened, e.g. to hide its own
 * spinner or show its own message. Only non-sensitive facts are posted.
 */
function notifyParent(message: Record<string, unknown>): void {
  if (window.parent !== window) window.parent.postMessage({ source: 'helix-viewer', ...message }, '*');
}

function fail(app: HTMLElement, e: unknown): void {
  const err =
    e instanceof ModelLoadError ? e : new ModelLoadError('invalid', 0, (e as Error)?.message ?? String(e));
  console.error('[viewer]', err.kind, err.status || '', err.message);
  state.error = err.message;
  state.errorKind = err.kind;
  state.ready = false;
  app.querySelector('.overlay.loading')?.remove();
  const overlay = messageOverlay(err.kind, err.status, err.userText);
  overlay.querySelector('[data-action="retry"]')?.addEventListener('click', () => location.reload());
  app.append(overlay);
  setViewerState('error');
  notifyParent({ type: 'error', kind: err.kind, status: err.status || null });
}

function modelTitle(source: ModelSource, gltf: GLTF): string {
  const extras = gltf.scene.userData as { title?: unknown };
  if (source.title) return source.title;
  if (typeof extras.title === 'string') return extras.title;
  const file = decodeURIComponent(new URL(source.glbUrl).pathname.split('/').pop() ?? 'Model');
  return file.replace(/\.(glb|gltf)$/i, '').replace(/[-_]+/g, ' ');
}

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

  let source: ModelSource;
  try {
    if (offline === 'copy') {
      // No network: the portal hands over the copy it keeps of a pinned model (offline-copy.ts).
      source = await receiveOfflineCopy({ portalOrigin: new URL(await readApiUrl()).origin, params });
    } else {
      // `src` (tests, development) loads a file directly, but only when the server allows it
      // (VIEWER_ALLOW_SRC) or under the Vite dev server; otherwise `model` is resolved through the
      // API, which counts one view per call: resolveModelSource calls the lookup once per page load.
      const allowSrc = import.meta.env.DEV || (params.src !== null && (await readAllowSrc()));
      source = await resolveModelSource(params, {
        allowSrc,
        lookup: createApiLookup({ apiUrl: () => readApiUrl() }),
      });
    }
  } catch (e) {
    fail(app, e);
    return;
  }
  const flags = new Set<EmbedFlag>(source.settings);
  state.settings = [...source.settings];
  document.body.dataset.mode = source.mode;
  applyLayout(flags);

  const stage = h('div', { class: 'stage' });
  app.append(stage);
  applyBackground(stage, source.branding, flags, source.transparent);
  state.transparent = source.transparent;
  const loading = new LoadingOverlay(source.branding.loadingImage);
  app.append(loading.el);

  // The model file downloads while three.js is still arriving.
  // On a share or embed page its document's preload has started it (the page's hint, model-hint.ts).
  const download = fetchModel(hintedModelUrl(params.glb, source.glbUrl), (loaded, total) =>
    loading.progress(loaded, total),
  );
  download.catch(() => undefined); // awaited below

  let runtime: Awaited<typeof sceneRuntime>;
  try {
    runtime = await sceneRuntime;
  } catch (e) {
    fail(app, new ModelLoadError('network', 0, (e as Error)?.message));
    return;
  }

  let viewer: Viewer3D;
  try {
    viewer = new runtime.Viewer3D(stage);
  } catch (e) {
    fail(app, new ModelLoadError('webgl', 0, (e as Error)?.message));
    return;
  }

  let gltf: GLTF;
  try {
    const buffer = await download;
    performance.mark('viewer:fetched');
    loading.stage('Preparing model…');
    gltf = await runtime.parseGltf(buffer, source.glbUrl);
  } catch (e) {
    fail(app, e);
    return;
  }

  performance.mark('viewer:parsed');
  viewer.setModel(gltf, { center: flags.has('center_model') });
  state.centred = viewer.centred;
  state.partNames = viewer.parts.map((p) => p.name);
  viewer.onRender(() => {
    state.cameraDistance = viewer.camera.position.distanceTo(viewer.controls.target);
    state.cameraPosition = viewer.camera.position.toArray();
    state.cameraTarget = viewer.controls.target.toArray();
    state.highlighted = viewer.highlightedPart?.name ?? null;
    state.flights = viewer.flights;
  });
  state.reducedMotion = viewer.reducedMotion;
  document.body.dataset.reducedMotion = String(viewer.reducedMotion);
  const title = modelTitle(source, gltf);
  // The 3D view: named after the model, with the keys described for screen readers.
  const keysHelp = h('p', { id: 'viewer-keys-help', class: 'visually-hidden' }, MSG.viewerKeysHelp);
  stage.append(keysHelp);
  viewer.renderer.domElement.setAttribute('aria-label', `${title}: 3D model`);
  viewer.renderer.domElement.setAttribute('aria-describedby', keysHelp.id);
  document.body.dataset.centred = String(viewer.centred);

  // --- UI, one piece per flag -------------------------------------------------------------
  const collapsed = flags.has('hide_modal');
  document.body.dataset.panels = collapsed ? 'collapsed' : 'expanded';
  const update = () => {
    state.playing = viewer.isPlaying;
    state.labelsVisible = labels?.visible ?? false;
    document.body.dataset.playing = String(viewer.isPlaying);
    layers?.sync();
    toc?.sync();
    outline.sync();
  };
  // Short messages (AR) for everyone, read by screen readers too.
  const status = h('p', { class: 'viewer-status', role: 'status' });
  const announce = (message: string) => (status.textContent = message);

  // Every part as text, reachable by keyboard right after the 3D view, whatever the link's features.
  const outline = partsOutline(viewer, () => update());
  stage.after(outline.el);

  const labels =
    flags.has('labels') || flags.has('labels_ui')
      ? new LabelLayer(viewer, flags.has('labels'), flags.has('labels'))
      : null;
  if (labels) stage.append(labels.el);
  const draw = flags.has('draw')
    ? new DrawLayer(
        stage,
        () => getComputedStyle(document.body).getPropertyValue('--accent').trim() || '#5f51fb',
      )
    : null;

  const dock = h('div', { class: 'dock' });
  if (flags.has('info')) {
    dock.append(
      infoPanel(
        {
          title,
          description:
            source.description ??
            (typeof gltf.scene.userData.description === 'string' ? gltf.scene.userData.description : null),
          version: source.version,
          partCount: viewer.parts.length,
          animated: viewer.hasAnimations,
        },
        collapsed,
      ),
    );
  }
  let layers: SyncedPanel | null = null;
  let toc: SyncedPanel | null = null;
  if (flags.has('layers')) {
    layers = layersPanel(viewer, collapsed, update);
    dock.append(layers.el);
  }
  if (flags.has('table_of_content')) {
    toc = tocPanel(viewer, collapsed, update);
    dock.append(toc.el);
  }
  if (dock.childElementCount) app.append(dock);
  if (!collapsed && document.body.dataset.layout === 'mobile') {
    // Compact layout: only the first panel starts open.
    [...dock.querySelectorAll<HTMLElement>('.panel')].slice(1).forEach((p) => setPanelOpen(p, false));
  }

  // Keep the model out from under the panels: bottom sheet (compact layout) or left column.
  const measureInsets = () => {
    const stageRect = stage.getBoundingClientRect();
    const dockRect = dock.isConnected ? dock.getBoundingClientRect() : null;
    const anyOpen = !!dock.querySelector('.panel[data-collapsed="false"]');
    if (!dockRect || !dockRect.width) viewer.setInsets(0, 0);
    else if (document.body.dataset.layout === 'mobile')
      viewer.setInsets(0, Math.max(0, stageRect.bottom - dockRect.top));
    else viewer.setInsets(anyOpen ? Math.max(0, dockRect.right - stageRect.left) : 0, 0);
  };
  measureInsets();
  viewer.reframe();
  new ResizeObserver(measureInsets).observe(dock);
  window.addEventListener('resize', measureInsets);

  const toolbar = buildToolbar({
    flags,
    viewer,
    labels,
    draw,
    fullscreenTarget: document.documentElement,
    onChange: update,
  });
  app.append(toolbar.el, status);
  bindKeyboard(viewer, toolbar, draw, update);

  // View in AR: where the link allows it and the device can (docs/ar.md); absent otherwise.
  if (flags.has('ar')) {
    void detectArMode().then((mode) => {
      state.ar = mode;
      document.body.dataset.ar = mode ?? 'none';
      if (!mode) return;
      toolbar.el.append(
        arControl({
          mode,
          viewer,
          metersPerUnit: metersPerUnitOf(gltf.scene.userData),
          announce,
          onState: (s) => (state.arState = s),
        }),
      );
      // Fetched now, so that a tap starts AR within the browser's user-gesture window.
      void import('./ar/ar-placement.ts');
      void (mode === 'quick-look' ? import('./ar/usdz.ts') : import('./ar/webxr-ar.ts'));
    });
  } else document.body.dataset.ar = 'off';

  // Screen recording: only when the API's answer for this load allows it (portal modal, Screen.record
  // and the plan's screenRecord); the API is asked again at every start.
  if (source.record && params.model && params.subscription) {
    const { model, subscription } = params;
    app.append(
      recordControl({
        stage,
        modelName: title,
        ask: async () => askToRecord(await readApiUrl(), model, subscription),
        onState: (s) => {
          state.recording = s;
          document.body.dataset.recording = s;
        },
      }),
    );
  }

  // Reduced motion: nothing moves on its own (the Play button still starts it on request).
  viewer.setPlaying(flags.has('animate') && !viewer.reducedMotion);
  toolbar.sync();
  viewer.renderNow();
  performance.mark('viewer:ready');
  loading.remove();
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
