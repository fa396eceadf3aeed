import { Modal, Result, Spin, Tag } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { MSG } from '@helix/shared';
import { ApiError } from '../../api/api-error';
import { withModalSettings } from '../../models/embed-settings';
import { fetchViewerUrl, type Model } from '../../models/models.api';
import { safeFrameUrl } from '../../models/share-links';
import { getPinnedModel, unpinModel, type PinnedModel } from '../../offline/pinned-models';
import { useSessionUser } from '../../session/use-session';
import { handOverPinnedCopy, offlineFrameUrl } from './offline-viewer';
import { PinButton } from './pin-button';
import { PinnedStorage } from './pinned-storage';

type FrameState =
  | { status: 'loading' }
  | { status: 'ready'; url: string }
  | { status: 'offline'; url: string; pin: PinnedModel }
  | { status: 'failed'; message: string };

/**
 * The full-screen viewer: POST /model/viewer-url gives the model host's address (standard mode); the
 * modal's fixed feature set (everything but center_model) is added when the API has not set it.
 * Without network, a model kept on this device (pinned) opens from its copy: the viewer is framed with
 * `offline=copy` and handed the file (offline-viewer.ts), and the view is queued to be counted later.
 */
export function ViewerModal({ model, pinned, onClose }: { model: Model; pinned: boolean; onClose(): void }) {
  const user = useSessionUser();
  const userId = user?.id ?? null;
  const [state, setState] = useState<FrameState>({ status: 'loading' });
  const frame = useRef<HTMLIFrameElement>(null);
  // Read when opening, not a reason to open again (pinning from the modal keeps the frame as it is).
  const pinnedWhenOpened = useRef(pinned);

  useEffect(() => {
    const controller = new AbortController();
    const offlineCopy = async (): Promise<boolean> => {
      const pin = userId === null ? null : await getPinnedModel(userId, model.id);
      if (!pin || controller.signal.aborted) return false;
      setState({ status: 'offline', url: offlineFrameUrl(pin), pin });
      return true;
    };
    const open = async () => {
      if (!navigator.onLine && (await offlineCopy())) return;
      try {
        // With a kept copy to fall back on, a failure is not worth a toast: the modal says what happens.
        const { url } = await fetchViewerUrl(model.id, controller.signal, {
          toast: !pinnedWhenOpened.current,
        });
        const safe = safeFrameUrl(url, window.location.origin);
        setState(
          safe
            ? { status: 'ready', url: withModalSettings(safe) }
            : { status: 'failed', message: MSG.viewerFailed },
        );
      } catch (error) {
        if (controller.signal.aborted) return;
        // No answer at all (statusCode 0): the device is offline in all but name.
        if (error instanceof ApiError && error.statusCode === 0 && (await offlineCopy())) return;
        if (controller.signal.aborted) return;
        // The model is gone or no longer visible to this tenant: a kept copy would only mislead.
        if (error instanceof ApiError && error.statusCode === 404 && userId !== null) {
          void unpinModel(userId, model.id).catch(() => undefined);
        }
        const offline = !navigator.onLine || (error instanceof ApiError && error.statusCode === 0);
        // The client has shown the server's reason (e.g. the view limit); the modal says it too.
        setState({
          status: 'failed',
          message: offline
            ? MSG.viewerNotPinned
            : error instanceof ApiError
              ? error.message
              : MSG.viewerFailed,
        });
      }
    };
    void open();
    return () => controller.abort();
  }, [model.id, userId]);

  // The viewer asks for the copy once it has started (offline-request); it is sent from this origin.
  useEffect(() => {
    if (state.status !== 'offline') return;
    const pin = state.pin;
    const onMessage = (event: MessageEvent) => {
      const target = frame.current?.contentWindow;
      if (!target || event.source !== target || event.origin !== pin.model.copy.viewerOrigin) return;
      const data = event.data as { source?: unknown; type?: unknown } | null;
      if (data?.source !== 'helix-viewer' || data.type !== 'offline-request') return;
      void handOverPinnedCopy(pin, model.name, target).then((sent) => {
        if (!sent) setState({ status: 'failed', message: MSG.viewerFailed });
      });
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [state, model.name]);

  return (
    <Modal
      open
      title={
        <div className="viewer-modal-bar">
          <span>{model.name}</span>
          <PinButton model={model} pinned={pinned} variant="button" />
          {pinned && <PinnedStorage pinnedCount={0} pinnedBytes={0} />}
          {/* In the title bar, so the frame has the same size online and offline. */}
          {state.status === 'offline' && (
            <Tag color="blue" role="status" data-testid="viewer-offline">
              {MSG.viewerOffline}
            </Tag>
          )}
        </div>
      }
      width="100%"
      style={{ top: 8, maxWidth: 'calc(100vw - 16px)', paddingBottom: 0 }}
      className="viewer-modal"
      footer={null}
      onCancel={onClose}
      destroyOnHidden
    >
      {state.status === 'loading' && (
        <div className="viewer-status">
          <Spin size="large" aria-label="Loading viewer" />
        </div>
      )}
      {state.status === 'failed' && (
        <div className="viewer-status">
          <Result status="warning" title={MSG.viewerFailed} subTitle={state.message} />
        </div>
      )}
      {(state.status === 'ready' || state.status === 'offline') && (
        <iframe
          ref={frame}
          className="viewer-frame"
          title={`${model.name} viewer`}
          src={state.url}
          // microphone: the viewer's Record control may add narration (Screen.record, plan screenRecord).
          allow="fullscreen; xr-spatial-tracking; autoplay; microphone"
        />
      )}
    </Modal>
  );
}
