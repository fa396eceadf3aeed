import { CloudDownloadOutlined, CloudOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { CardActionButton } from './card-action-button';
import { MSG } from '@helix/shared';
import { logError } from '../../logging/error-logger';
import type { Model } from '../../models/models.api';
import { PinError, pinModel, unpinModel } from '../../offline/pinned-models';
import { readTenant } from '../../session/cookies';
import { useSessionUser } from '../../session/use-session';
import { toastError, toastSuccess } from '../../ui/notify';

interface PinButtonProps {
  model: Model;
  pinned: boolean;
  /** 'icon': a card action; 'button': with its label (viewer modal). */
  variant?: 'icon' | 'button';
}

/** "Keep offline" / "Remove from this device" for one model. */
export function PinButton({ model, pinned, variant = 'icon' }: PinButtonProps) {
  const user = useSessionUser();
  const [busy, setBusy] = useState(false);
  if (!user) return null;
  const label = pinned ? MSG.removeOffline : MSG.keepOffline;

  const toggle = async () => {
    setBusy(true);
    try {
      if (pinned) {
        await unpinModel(user.id, model.id);
        toastSuccess(MSG.pinnedRemoved(model.name));
      } else {
        await pinModel(user.id, readTenant(), model);
        toastSuccess(MSG.pinnedSaved(model.name));
      }
    } catch (error) {
      logError('Keeping a model offline failed', error, 'warn');
      toastError(
        error instanceof PinError && error.message === MSG.pinNotSupported ? error.message : MSG.pinFailed,
      );
    } finally {
      setBusy(false);
    }
  };

  const icon = pinned ? <CloudOutlined /> : <CloudDownloadOutlined />;
  if (variant === 'button') {
    return (
      <Button icon={icon} loading={busy} aria-pressed={pinned} onClick={() => void toggle()}>
        {pinned ? MSG.removeOffline : MSG.keepOffline}
      </Button>
    );
  }
  return (
    <CardActionButton
      label={label}
      name={model.name}
      icon={icon}
      busy={busy}
      pressed={pinned}
      onClick={() => void toggle()}
    />
  );
}
