import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { refreshSessionUser } from './session';

/**
 * Reloads the session user (GET /user/info) when the signed-in user moves to another page, so a
 * change to their roles or plan shows in their menus on their next page, not their next login. The
 * first page is skipped: start-up refreshes it already. Failures keep the cached user quietly.
 */
export function useRefreshOnNavigate(): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    refreshSessionUser().catch(() => undefined);
  }, [pathname]);
}
