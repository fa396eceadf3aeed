import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { MSG } from '@helix/shared';
import { useRouteError } from 'react-router-dom';
import { logError } from '../../logging/error-logger';

/** A page crashed while rendering: report it, and offer a way out instead of a blank screen. */
export function RouteErrorPage() {
  const error = useRouteError();
  useEffect(() => {
    logError('A page failed to render', error);
  }, [error]);
  return (
    <main className="status-page">
      <Result
        status="error"
        title={<h1 className="status-title">{MSG.defaultError}</h1>}
        extra={
          <Button type="primary" onClick={() => window.location.reload()}>
            Reload
          </Button>
        }
      />
    </main>
  );
}
