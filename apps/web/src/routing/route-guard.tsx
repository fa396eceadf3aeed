import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { forgetRedirect, peekRedirect, rememberRedirect } from '../session/local-storage';
import { brandAtom, sessionAtom, sessionReadyAtom, signedOutAtom } from '../session/session.atoms';
import { BootScreen } from '../ui/boot-screen';
import { pathKind, resolveRedirect, type GuardInput } from './guard';

/**
 * Where a signed-in user leaves a guest page to. Right after signing in that is the page they first
 * asked for (local storage `__redirect`), if the guard lets them in there; otherwise the rules decide.
 */
function guestExit(input: GuardInput, fallback: string | null): string | null {
  const back = peekRedirect();
  if (!back) return fallback;
  return resolveRedirect(back, input) ?? back;
}

/**
 * Every route passes through here. The rules live in guard.ts; this applies them, and also performs
 * every "signed out, go to login" and "signed in, leave the login page" move, so forms and the API
 * client only change the session and never race the guard with their own navigation.
 */
export function RouteGuard() {
  const location = useLocation();
  const session = useAtomValue(sessionAtom);
  const brand = useAtomValue(brandAtom);
  const ready = useAtomValue(sessionReadyAtom);
  const signedOut = useAtomValue(signedOutAtom);

  const kind = pathKind(location.pathname);
  const input: GuardInput = { ...session, brand };
  let target = ready ? resolveRedirect(location.pathname, input) : null;
  if (target && kind === 'guest' && session.user) target = guestExit(input, target);

  const arrivingSignedOut = ready && !session.user && !signedOut && kind === 'authenticated';
  const here = `${location.pathname}${location.search}`;
  const leavingGuestPage = Boolean(target && kind === 'guest' && session.user);
  useEffect(() => {
    if (arrivingSignedOut && here !== '/') rememberRedirect(here);
    if (leavingGuestPage) forgetRedirect();
  }, [arrivingSignedOut, leavingGuestPage, here]);

  // Public pages (embed, share) never wait for the session refresh. Meanwhile the boot screen stays:
  // the same neutral "Loading…" index.html shows, and no antd in the entry chunk.
  if (!ready && kind !== 'public') return <BootScreen />;
  if (target) return <Navigate to={target} replace />;
  return <Outlet />;
}
