import { atom } from 'jotai';
import { fetchAuthProviders } from '../api/auth.api';

/**
 * Whether "Continue with Google" is offered: null until known. A page the API drew (the login page,
 * apps/api/src/http/web-app.ts) says it on its <html data-google="on|off">, so the app that takes the
 * page over renders the very same form; every other page asks GET /api/auth/providers once.
 */
export const googleSignInAtom = atom<boolean | null>(renderedGoogleFlag());

/** The server-rendered document's flag, or null (the app shell, or Node while rendering). */
function renderedGoogleFlag(): boolean | null {
  if (typeof document === 'undefined') return null;
  const flag = document.documentElement.dataset.google;
  return flag === 'on' ? true : flag === 'off' ? false : null;
}

let asking: Promise<boolean> | null = null;

/** The server's answer, asked once per page load; a failure hides the button (it could not work). */
export function askGoogleSignIn(): Promise<boolean> {
  asking ??= fetchAuthProviders().then(
    (providers) => providers.google,
    () => {
      asking = null;
      return false;
    },
  );
  return asking;
}
