import { queryOptions } from '@tanstack/react-query';
import { MSG } from '@helix/shared';
import { ApiError } from '../../api/api-error';
import { withModalSettings } from '../../models/embed-settings';
import { fetchViewerUrl } from '../../models/models.api';
import { safeFrameUrl } from '../../models/share-links';
import { getPinnedModel, unpinModel, type PinnedModel } from '../../offline/pinned-models';
import { offlineFrameUrl } from './offline-viewer';

export type FrameState =
  | { status: 'loading' }
  | { status: 'ready'; url: string }
  | { status: 'offline'; url: string; pin: PinnedModel }
  | { status: 'failed'; message: string };

/** The viewer's query keys, in one place. */
const viewerKeys = {
  all: ['viewer'] as const,
  frame: (modelId: number, userId: number | null) => [...viewerKeys.all, 'frame', modelId, userId] as const,
};

/**
 * What the viewer frames: the model host's address (POST /model/viewer-url), or without network the
 * copy kept on this device, or why it cannot open. Each opening asks again (a view is counted), and
 * nothing of it is kept once the modal closes.
 */
export const viewerFrameQuery = (modelId: number, userId: number | null, pinned: boolean) =>
  queryOptions({
    queryKey: viewerKeys.frame(modelId, userId),
    queryFn: ({ signal }) => openViewerFrame(modelId, userId, pinned, signal),
    gcTime: 0,
    // Without network it still opens (from the kept copy, or says why not).
    networkMode: 'always',
  });

async function openViewerFrame(
  modelId: number,
  userId: number | null,
  pinned: boolean,
  signal: AbortSignal,
): Promise<FrameState> {
  const offlineCopy = async (): Promise<FrameState | null> => {
    const pin = userId === null ? null : await getPinnedModel(userId, modelId);
    return pin ? { status: 'offline', url: offlineFrameUrl(pin), pin } : null;
  };
  if (!navigator.onLine) {
    const copy = await offlineCopy();
    if (copy) return copy;
  }
  try {
    // With a kept copy to fall back on, a failure is not worth a toast: the modal says what happens.
    const { url } = await fetchViewerUrl(modelId, signal, { toast: !pinned });
    const safe = safeFrameUrl(url, window.location.origin);
    return safe
      ? { status: 'ready', url: withModalSettings(safe) }
      : { status: 'failed', message: MSG.viewerFailed };
  } catch (error) {
    if (signal.aborted) throw error;
    // No answer at all (statusCode 0): the device is offline in all but name.
    if (error instanceof ApiError && error.statusCode === 0) {
      const copy = await offlineCopy();
      if (copy) return copy;
    }
    // The model is gone or no longer visible to this tenant: a kept copy would only mislead.
    if (error instanceof ApiError && error.statusCode === 404 && userId !== null) {
      void unpinModel(userId, modelId).catch(() => undefined);
    }
    const offline = !navigator.onLine || (error instanceof ApiError && error.statusCode === 0);
    // The client has shown the server's reason (e.g. the view limit); the modal says it too.
    return {
      status: 'failed',
      message: offline ? MSG.viewerNotPinned : error instanceof ApiError ? error.message : MSG.viewerFailed,
    };
  }
}
