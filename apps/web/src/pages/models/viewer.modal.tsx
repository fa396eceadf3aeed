import { Modal, Result, Spin, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { MSG } from '@helix/shared';
import type { Model } from '../../models/models.api';
import { useSessionUser } from '../../session/use-session';
import { handOverPinnedCopy } from './offline-viewer';
import { PinButton } from './pin-button';
import { PinnedStorage } from './pinned-storage';
import { StartLessonButton } from './start-lesson-button';
import { viewerFrameQuery, type FrameState } from './viewer.queries';

/**
 * The full-screen viewer: POST /model/viewer-url gives the model host's address (standard mode); the
 * modal's fixed feature set (everything but center_model) is added when the API has not set it.
 * Without network, a model kept on this device (pinned) opens from its copy: the viewer is framed with
 * `offline=copy` and handed the file (offline-viewer.ts), and the view is queued to be counted later.
 * A teacher (the model's `lesson` ability) starts a live lesson on it from here.
 */
export function ViewerModal({ model, pinned, onClose }: { model: Model; pinned: boolean; onClose(): void }) {
  const user = useSessionUser();
  const userId = user?.id ?? null;
  const frame = useRef<HTMLIFrameElement>(null);
  // Read when opening, not a reason to open again (pinning from the modal keeps the frame as it is).
  const pinnedWhenOpened = useRef(pinned);

  const opened = useQuery(viewerFrameQuery(model.id, userId, pinnedWhenOpened.current));
  const [handOverFailed, setHandOverFailed] = useState(false);
  const state = useMemo<FrameState>(
    () =>
      handOverFailed
        ? { status: 'failed', message: MSG.viewerFailed }
        : (opened.data ?? { status: 'loading' }),
    [handOverFailed, opened.data],
  );

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
        if (!sent) setHandOverFailed(true);
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
          {/* A live lesson needs the network: not from a copy opened offline. */}
          {model.abilities.lesson && state.status === 'ready' && <StartLessonButton model={model} />}
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
