import { Modal, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { MSG } from '@helix/shared';
import { ApiError } from '../../api/api-error';
import { withModalSettings } from '../../models/embed-settings';
import { fetchViewerUrl, type Model } from '../../models/models.api';
import { safeFrameUrl } from '../../models/share-links';

type FrameState =
  { status: 'loading' } | { status: 'ready'; url: string } | { status: 'failed'; message: string };

/**
 * The full-screen viewer: POST /model/viewer-url gives the model host's address (standard mode); the
 * modal's fixed feature set (everything but center_model) is added when the API has not set it.
 */
export function ViewerModal({ model, onClose }: { model: Model; onClose(): void }) {
  const [state, setState] = useState<FrameState>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    fetchViewerUrl(model.id, controller.signal)
      .then(({ url }) => {
        const safe = safeFrameUrl(url, window.location.origin);
        setState(
          safe
            ? { status: 'ready', url: withModalSettings(safe) }
            : { status: 'failed', message: MSG.viewerFailed },
        );
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        // The client has shown the server's reason (e.g. the view limit); the modal says it too.
        setState({ status: 'failed', message: error instanceof ApiError ? error.message : MSG.viewerFailed });
      });
    return () => controller.abort();
  }, [model.id]);

  return (
    <Modal
      open
      title={model.name}
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
      {state.status === 'ready' && (
        <iframe
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
