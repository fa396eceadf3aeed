import { readKept } from '../../offline/pinned-cache';
import type { PinnedModel } from '../../offline/pinned-models';
import { queueView, sendQueuedViewsSoon } from '../../offline/queued-views';

/** The viewer frame for a pinned copy: no ticket, the file comes by postMessage (apps/viewer offline-copy.ts). */
export function offlineFrameUrl(pin: PinnedModel): string {
  const { copy } = pin.model;
  const params = new URLSearchParams({
    model: copy.urlModelName,
    currentmode: 'standard',
    version: String(copy.version),
    offline: 'copy',
  });
  return `${copy.viewerOrigin}/?${params.toString()}`;
}

const keptImage = (url: string | null) => (url ? readKept(new URL(url, location.origin).href) : null);

/**
 * Sends the pinned copy (the .glb, the branding images as blobs) to the viewer frame, to the viewer's
 * origin only, and queues the view (with the copy's id) to be counted once the device is back online. False when the
 * file is no longer on the device (the browser evicted it).
 */
export async function handOverPinnedCopy(pin: PinnedModel, name: string, target: Window): Promise<boolean> {
  const { copy, fileUrl } = pin.model;
  const glb = await readKept(fileUrl);
  if (!glb) return false;
  const [background, loading, buffer] = await Promise.all([
    keptImage(copy.branding.modelBgLogo),
    keptImage(copy.branding.modelLoadingLogo),
    glb.arrayBuffer(),
  ]);
  target.postMessage(
    {
      source: 'helix-portal',
      type: 'offline-model',
      name,
      settings: copy.settings,
      branding: {
        backgroundColor: copy.branding.backgroundColor,
        primaryColor: copy.branding.primaryColor,
        modelBgLogo: background,
        modelLoadingLogo: loading,
      },
      glb: buffer,
    },
    copy.viewerOrigin,
    [buffer],
  );
  // A pin kept before copies had ids has none to count with (it is renewed when next online).
  const { copyId } = copy;
  const device = pin.model.deviceId;
  if (!copyId || !device) return true;
  if (
    (await queueView(pin.userId, pin.tenant, pin.modelId, { copyId, deviceId: device })) &&
    navigator.onLine
  )
    sendQueuedViewsSoon();
  return true;
}
