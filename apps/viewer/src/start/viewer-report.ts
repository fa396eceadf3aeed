import { ModelLoadError } from '../load-model.ts';
import { messageOverlay } from '../ui/overlays.ts';
import type { ViewerTestState } from '../viewer-state.ts';

declare global {
  interface Window {
    __viewer: ViewerTestState;
  }
}

/** What the viewer reports of itself: window.__viewer (browser tests), the body's data-viewer-state. */
export function createViewerState(): ViewerTestState {
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
    selected: null,
    hiddenParts: [],
    lessonRole: null,
    lessonStatus: null,
    cutaway: null,
    colours: {},
    pointer: null,
    lessonViewsApplied: 0,
    lessonViewsPosted: 0,
  };
  window.__viewer = state;
  return state;
}

export const setViewerState = (s: 'loading' | 'ready' | 'error') => (document.body.dataset.viewerState = s);

/**
 * Tells the framing page (portal modal, share/embed page) what happened, e.g. to hide its own
 * spinner or show its own message. Only non-sensitive facts are posted.
 */
export function notifyParent(message: Record<string, unknown>): void {
  if (window.parent !== window) window.parent.postMessage({ source: 'helix-viewer', ...message }, '*');
}

/** A load that cannot be shown: the message overlay (with Retry), the state, the framing page told. */
export function showFailure(state: ViewerTestState, app: HTMLElement, e: unknown): void {
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
