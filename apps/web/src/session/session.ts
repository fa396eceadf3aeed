import { queryClient } from '../api/query-client';
import { fetchSessionUser, logoutOnServer, type AuthResponse } from '../api/auth.api';
import { ApiError } from '../api/api-error';
import {
  clearSessionCookies,
  readApiToken,
  readAuthType,
  readUserCookie,
  writeSessionCookies,
  writeUserCookie,
} from './cookies';
import { readBrand } from './local-storage';
import {
  appStore,
  authTypeAtom,
  brandAtom,
  sessionReadyAtom,
  sessionUserAtom,
  signedOutAtom,
} from './session.atoms';
import type { SessionUser } from './session-user';

/** Stores a fresh sign-in (login, sign-up, Google) in the cookies and the session atoms. */
export function startSession(answer: AuthResponse, rememberMe: boolean): void {
  const user: SessionUser = { ...answer.user, rememberMe };
  writeSessionCookies({
    apiToken: answer.apiToken,
    tenant: answer.tenant,
    user,
    authType: answer.authType,
    rememberMe,
  });
  appStore.set(sessionUserAtom, user);
  appStore.set(authTypeAtom, answer.authType);
  appStore.set(signedOutAtom, false);
}

/**
 * Forgets the session in this browser only (the server has ended it already, or will). The route guard
 * then takes the user to login, with the brand suffix when there is one.
 */
export function clearLocalSession(): void {
  clearSessionCookies();
  appStore.set(signedOutAtom, true);
  appStore.set(sessionUserAtom, null);
  appStore.set(authTypeAtom, null);
  // Nothing a signed-out visitor or the next user of this browser may see.
  queryClient.clear();
}

/** Log Out: end the session on the server, then here. The local part happens even when offline. */
export async function logout(): Promise<void> {
  if (readApiToken()) await logoutOnServer().catch(() => undefined);
  clearLocalSession();
}

export async function refreshSessionUser(): Promise<SessionUser | null> {
  const current = appStore.get(sessionUserAtom);
  if (!current) return null;
  // Start-up keeps quiet: offline or a server hiccup must not greet the user with an error toast.
  const fresh = await fetchSessionUser({ toast: false });
  const user: SessionUser = { ...fresh, rememberMe: current.rememberMe };
  writeUserCookie(user);
  // The same user as the page was rendered with (the usual start-up answer): the atom keeps its
  // object, so nothing that reads the session renders again after hydration.
  const now = appStore.get(sessionUserAtom);
  if (now && sameUser(now, user)) return now;
  appStore.set(sessionUserAtom, user);
  return user;
}

/** Plain data from the API (the same presenter, the same key order): equal when serialised alike. */
const sameUser = (a: SessionUser, b: SessionUser): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The server's fresh copy of the session user (after a profile edit): the header updates at once. */
export function replaceSessionUser(fresh: SessionUser): SessionUser {
  const current = appStore.get(sessionUserAtom);
  const user: SessionUser = { ...fresh, rememberMe: current?.rememberMe };
  writeUserCookie(user);
  appStore.set(sessionUserAtom, user);
  return user;
}

/** How long start-up waits for /user/info before trusting the cookie (slow or no network). */
const STARTUP_REFRESH_WAIT_MS = 4000;

/**
 * Reads the session from the cookies before the first render, then refreshes the user from the API.
 * A corrupt user cookie, or a user without a token, is a logout.
 */
export function initSession(): void {
  appStore.set(brandAtom, readBrand());
  const token = readApiToken();
  const { user, corrupt } = readUserCookie();
  if (corrupt || (user && !token) || (!user && token)) {
    void logout();
    appStore.set(sessionReadyAtom, true);
    return;
  }
  appStore.set(sessionUserAtom, user);
  appStore.set(authTypeAtom, user ? readAuthType() : null);
  if (!user) {
    appStore.set(sessionReadyAtom, true);
    return;
  }
  const ready = () => appStore.set(sessionReadyAtom, true);
  const timer = setTimeout(ready, STARTUP_REFRESH_WAIT_MS);
  refreshSessionUser()
    .catch((error: unknown) => {
      // A 401 is handled by the client (popup or logout); anything else keeps the cached user.
      if (!(error instanceof ApiError)) console.warn('Could not refresh the session user', error);
    })
    .finally(() => {
      clearTimeout(timer);
      ready();
    });
}
