import { sourceFromAnswer } from './api-lookup.ts';
import { ModelLoadError } from './load-model.ts';
import type { ModelSource } from './model-source.ts';
import type { ViewerParams } from './params.ts';

/**
 * Models pinned for offline use (apps/web README, "Pinned models"). The portal keeps a pinned model's
 * file on the device; with no network it frames the viewer with `offline=copy` and hands the file
 * over by postMessage, instead of the API lookup (which needs the network and a fresh ticket):
 *
 *   viewer -> parent  { source: 'helix-viewer', type: 'offline-request', model }
 *   parent -> viewer  { source: 'helix-portal', type: 'offline-model', name, settings, branding, glb }
 *
 * The viewer accepts the hand-over only from its parent window and only from the portal's origin
 * (the API origin it is configured with: the API serves the portal), so no other page can make the
 * Helix viewer show a file of its choosing. `offline=prepare` only installs the viewer's service
 * worker (its app, cached for offline use) and reports `offline-ready` to the portal.
 */
export type OfflineMode = 'copy' | 'prepare' | null;

/** Only the portal's own modal (standard mode) works offline; share and embed pages never do. */
export function offlineModeOf(search: string): OfflineMode {
  const q = new URLSearchParams(search);
  if (q.get('currentmode') !== 'standard') return null;
  const mode = q.get('offline');
  return mode === 'copy' || mode === 'prepare' ? mode : null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The viewer's answer-shaped body from the portal's message (blobs made into local URLs), or null. */
export function answerFromMessage(
  data: unknown,
  toUrl: (blob: Blob) => string = (blob) => URL.createObjectURL(blob),
): Record<string, unknown> | null {
  if (!isRecord(data) || data.source !== 'helix-portal' || data.type !== 'offline-model') return null;
  if (!(data.glb instanceof ArrayBuffer) || data.glb.byteLength === 0) return null;
  const branding = isRecord(data.branding) ? data.branding : {};
  const image = (v: unknown) => (v instanceof Blob ? toUrl(v) : null);
  return {
    name: data.name,
    settings: data.settings,
    glbUrl: toUrl(new Blob([data.glb], { type: 'model/gltf-binary' })),
    branding: {
      backgroundColor: branding.backgroundColor,
      primaryColor: branding.primaryColor,
      modelBgLogo: image(branding.modelBgLogo),
      modelLoadingLogo: image(branding.modelLoadingLogo),
    },
  };
}

export interface HandoverOptions {
  /** The portal's origin: the only sender accepted. */
  portalOrigin: string;
  params: ViewerParams;
  win?: Window;
  timeoutMs?: number;
}

/** Asks the portal (the parent frame) for the kept copy and resolves what the viewer shows. */
export function receiveOfflineCopy({
  portalOrigin,
  params,
  win = window,
  timeoutMs = 30_000,
}: HandoverOptions): Promise<ModelSource> {
  return new Promise((resolve, reject) => {
    if (win.parent === win) {
      reject(new ModelLoadError('not-found', 404, 'An offline copy is only shown inside the portal.'));
      return;
    }
    const done = () => {
      win.removeEventListener('message', onMessage);
      clearTimeout(timer);
    };
    const onMessage = (event: MessageEvent) => {
      if (event.source !== win.parent || event.origin !== portalOrigin) return;
      const answer = answerFromMessage(event.data);
      if (!answer) return;
      done();
      try {
        resolve(sourceFromAnswer(answer, params, portalOrigin));
      } catch (e) {
        reject(e as Error);
      }
    };
    const timer = setTimeout(() => {
      done();
      reject(new ModelLoadError('network', 0, 'The portal did not hand over the offline copy.'));
    }, timeoutMs);
    win.addEventListener('message', onMessage);
    win.parent.postMessage(
      { source: 'helix-viewer', type: 'offline-request', model: params.model },
      portalOrigin,
    );
  });
}

/**
 * Registers the viewer's service worker (its app cached for offline use). Only in the portal's modal:
 * on share and embed pages, other people's sites, the viewer installs nothing. Resolves when a worker
 * is active (the app is cached), or false when the browser has none or refuses.
 */
export async function registerOfflineViewer(nav: Navigator = navigator): Promise<boolean> {
  if (!('serviceWorker' in nav)) return false;
  try {
    await nav.serviceWorker.register('./sw.js', { scope: './' });
    await nav.serviceWorker.ready;
    return true;
  } catch (e) {
    console.warn('[viewer] offline cache unavailable', (e as Error)?.message);
    return false;
  }
}
