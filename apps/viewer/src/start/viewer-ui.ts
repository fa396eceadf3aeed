import type { EmbedFlag } from '@helix/shared/embed';
import { readApiUrl } from '../api-config.ts';
import { detectArMode, metersPerUnitOf } from '../ar/ar-support.ts';
import type { ModelSource } from '../model-source.ts';
import type { ViewerParams } from '../params.ts';
import { askToRecord } from '../record/record-permission.ts';
import { arControl } from '../ui/ar-control.ts';
import { h } from '../ui/dom.ts';
import { DrawLayer } from '../ui/draw-layer.ts';
import { LabelLayer } from '../ui/labels.ts';
import { infoPanel, layersPanel, setPanelOpen, tocPanel, type SyncedPanel } from '../ui/panels.ts';
import { partsOutline } from '../ui/parts-outline.ts';
import { recordControl } from '../ui/record-control.ts';
import { bindKeyboard, buildToolbar } from '../ui/toolbar.ts';
import type { ViewerTestState } from '../viewer-state.ts';
import type { ShownModel } from './show-model.ts';

/** What the viewer's controls give the code that drives them from outside (a live lesson, lesson/). */
export interface ViewerUi {
  /** Re-reads the viewer into every control (after the view was changed from outside). */
  sync(): void;
  labels: LabelLayer | null;
  /** Adds a panel to the dock (made visible if it was empty). */
  addPanel(panel: HTMLElement): void;
}

/**
 * The viewer's controls around the shown model, one piece per flag of the link: the parts outline,
 * labels, drawing, the panel dock (info, layers, table of contents) the model keeps clear of, the
 * toolbar and its keys, View in AR, Record. Its own chunk (main.ts starts its download at once), so the
 * viewer's first script is small and the model's lookup starts sooner.
 */
export function buildViewerUi(
  app: HTMLElement,
  state: ViewerTestState,
  params: ViewerParams,
  source: ModelSource,
  flags: ReadonlySet<EmbedFlag>,
  shown: ShownModel,
): ViewerUi {
  const { viewer, gltf, stage, title } = shown;
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
    const anyOpen = !!dock.querySelector('.panel:not([hidden])[data-collapsed="false"]');
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
      void import('../ar/ar-placement.ts');
      void (mode === 'quick-look' ? import('../ar/usdz.ts') : import('../ar/webxr-ar.ts'));
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

  // Reduced motion: nothing moves on its own (the Play button still starts it on request). In a live
  // lesson the camera does not turn by itself either: the leader's camera is the class's.
  const autoRotates = !viewer.hasAnimations && params.currentmode === 'lesson';
  viewer.setPlaying(flags.has('animate') && !viewer.reducedMotion && !autoRotates);
  return {
    sync: () => toolbar.sync(),
    labels,
    addPanel: (panel) => {
      dock.append(panel);
      if (!dock.isConnected) toolbar.el.before(dock);
    },
  };
}
