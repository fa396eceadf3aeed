import { Button, Space } from 'antd';
import { MSG } from '@helix/shared';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { logError } from '../logging/error-logger';
import { toastInfo } from '../ui/notify';
import { Themed } from '../ui/themed';

const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers the service worker and asks before switching to a new version (registerType 'prompt'):
 * a silent reload could throw away a half-filled form.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      // Installed apps stay open for days on classroom tablets; look for new versions now and then,
      // and as soon as a tablet is back online or brought to the front, so a deploy made while it
      // was offline is offered at once rather than leaving it on the old shell.
      const check = () => {
        if (navigator.onLine) void registration.update().catch(() => undefined);
      };
      setInterval(check, UPDATE_CHECK_MS);
      window.addEventListener('online', check);
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'visible') check();
      });
    },
    onOfflineReady() {
      toastInfo(MSG.offlineReady);
    },
    onRegisterError(error: unknown) {
      logError('Service worker registration failed', error, 'warn');
    },
  });

  if (!needRefresh) return null;
  return (
    <Themed>
      <div className="update-prompt" role="alert" data-testid="update-prompt">
        <span>{MSG.newVersionAvailable}</span>
        <Space>
          <Button type="primary" onClick={() => void updateServiceWorker(true)}>
            Reload
          </Button>
          <Button onClick={() => setNeedRefresh(false)}>Later</Button>
        </Space>
      </div>
    </Themed>
  );
}
