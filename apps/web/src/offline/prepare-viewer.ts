/**
 * Makes sure the viewer's own app (another origin, apps/viewer) is cached on this device: a hidden frame
 * of the viewer with `offline=prepare` installs its service worker and answers `offline-ready`
 * (apps/viewer/src/offline-copy.ts). Resolves false when it cannot (no answer in time, refused).
 */
export function prepareOfflineViewer(viewerOrigin: string, timeoutMs = 30_000): Promise<boolean> {
  return new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.hidden = true;
    frame.setAttribute('aria-hidden', 'true');
    frame.title = 'Viewer (offline preparation)';
    frame.src = `${viewerOrigin}/?currentmode=standard&offline=prepare`;
    const finish = (ok: boolean) => {
      window.removeEventListener('message', onMessage);
      clearTimeout(timer);
      frame.remove();
      resolve(ok);
    };
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== viewerOrigin || event.source !== frame.contentWindow) return;
      const data = event.data as { source?: unknown; type?: unknown } | null;
      if (data?.source !== 'helix-viewer') return;
      if (data.type === 'offline-ready') finish(true);
      else if (data.type === 'offline-unavailable') finish(false);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    window.addEventListener('message', onMessage);
    document.body.append(frame);
  });
}
