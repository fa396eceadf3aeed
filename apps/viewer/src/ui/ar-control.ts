import { MSG } from '@helix/shared/messages';
import type { Mesh } from 'three';
import type { ArMode } from '../ar/ar-support.ts';
import type { Viewer3D } from '../scene/viewer-3d.ts';
import { h, icon, ICONS } from './dom.ts';

export interface ArControlOptions {
  mode: ArMode;
  viewer: Viewer3D;
  /** The model's real-world scale (scene extras metersPerUnit), null to fit DEFAULT_AR_SIZE_M. */
  metersPerUnit: number | null;
  /** Puts a short message in the viewer's status line (read by screen readers). */
  announce(message: string): void;
  onState(state: ArState): void;
}

type ArState = 'idle' | 'preparing' | 'presenting';

/**
 * Above this many vertices the USDZ (text, about 100 bytes a vertex) and its copy in memory would
 * strain an iPad; the action says so instead of crashing the tab (docs/ar.md).
 */
const AR_MAX_VERTICES = 1_000_000;

/** Quick Look wants an <img> as the link's first child; it is never shown. */
const PIXEL = 'data:image/gif;base64,R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==';

function vertexCount(viewer: Viewer3D): number {
  let n = 0;
  viewer.modelRoot?.traverseVisible((o) => {
    const mesh = o as Mesh;
    if (mesh.isMesh) n += mesh.geometry.getAttribute('position')?.count ?? 0;
  });
  return n;
}

/**
 * "View in AR" (the `ar` flag), only where the device can (detectArMode):
 * - Quick Look: the USDZ is made in the browser from the model as shown (hidden parts left out) when
 *   the action is used, then opened through `<a rel="ar">`; it is kept for the next use until the
 *   visible parts change.
 * - WebXR: an immersive-ar session draws the model on the surface the user taps (webxr-ar.ts).
 * The AR code (three's USDZExporter, the session) loads only when the action is used.
 */
export function arControl(options: ArControlOptions): HTMLElement {
  const { mode, viewer } = options;
  const button = h(
    'button',
    {
      type: 'button',
      class: 'tool',
      'aria-label': MSG.arView,
      title: MSG.arView,
      'data-flag': 'ar',
      'data-ar-mode': mode,
    },
    icon(ICONS.ar),
  );
  const quickLook = h(
    'a',
    { rel: 'ar', class: 'ar-quick-look', hidden: true },
    h('img', { src: PIXEL, alt: '' }),
  );
  const el = h('div', { class: 'ar-control' }, button, quickLook);
  let busy = false;
  let usdz: { key: string; url: string } | null = null;

  const setState = (state: ArState) => {
    busy = state !== 'idle';
    button.setAttribute('aria-busy', String(state === 'preparing'));
    button.disabled = state === 'preparing';
    options.onState(state);
  };

  const visibleKey = () => viewer.parts.map((p) => (p.object.visible ? '1' : '0')).join('');

  async function openQuickLook(): Promise<void> {
    const key = visibleKey();
    if (usdz?.key !== key) {
      const [{ arCopy }, { exportUsdz }] = await Promise.all([
        import('../ar/ar-placement.ts'),
        import('../ar/usdz.ts'),
      ]);
      const { holder, placement } = arCopy(viewer.modelRoot!, options.metersPerUnit);
      const bytes = await exportUsdz(holder);
      if (usdz) URL.revokeObjectURL(usdz.url);
      const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'model/vnd.usdz+zip' }));
      // A model at its real size keeps it: Quick Look then offers no pinch to resize.
      usdz = { key, url: placement.realSize ? `${url}#allowsContentScaling=0` : url };
    }
    quickLook.href = usdz.url;
    quickLook.click();
  }

  async function openWebXr(): Promise<void> {
    const [{ arCopy }, { startWebXrAr }] = await Promise.all([
      import('../ar/ar-placement.ts'),
      import('../ar/webxr-ar.ts'),
    ]);
    const hint = h('p', { class: 'ar-hint', role: 'status' }, MSG.arHint);
    const exit = h('button', { type: 'button', class: 'ar-exit' }, MSG.arExit);
    const overlay = h('div', { class: 'ar-overlay' }, hint, exit);
    document.body.append(overlay);
    const { holder } = arCopy(viewer.modelRoot!, options.metersPerUnit);
    const session = await startWebXrAr({
      renderer: viewer.renderer,
      model: holder,
      overlay,
      onStatus: (s) => (hint.hidden = s === 'placed'),
      onEnd: () => {
        overlay.remove();
        viewer.invalidate();
        setState('idle');
        button.focus();
      },
    }).catch((e: unknown) => {
      overlay.remove();
      throw e;
    });
    exit.addEventListener('click', () => void session.end());
    setState('presenting');
  }

  button.addEventListener('click', () => {
    if (busy || !viewer.modelRoot) return;
    if (vertexCount(viewer) > AR_MAX_VERTICES) {
      options.announce(MSG.arTooLarge);
      return;
    }
    setState('preparing');
    options.announce(MSG.arPreparing);
    const run = mode === 'quick-look' ? openQuickLook() : openWebXr();
    run.then(
      () => {
        if (mode === 'quick-look') setState('idle');
        options.announce('');
      },
      (e: unknown) => {
        console.error('[viewer] AR', e);
        setState('idle');
        options.announce(MSG.arFailed);
      },
    );
  });
  return el;
}
