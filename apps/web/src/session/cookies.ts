import Cookies from 'js-cookie';
import type { AuthType } from '@helix/shared';
import { COOKIE, DEFAULT_TENANT, REMEMBER_ME_DAYS } from './storage-keys';
import { parseSessionUser, serializeSessionUser, type SessionUser } from './session-user';

const attributes = (rememberMe: boolean): Cookies.CookieAttributes => ({
  path: '/',
  sameSite: 'Lax',
  secure: window.location.protocol === 'https:',
  // Without remember me the cookies are session cookies, gone when the browser closes.
  ...(rememberMe ? { expires: REMEMBER_ME_DAYS } : {}),
});

export const readApiToken = (): string | undefined => Cookies.get(COOKIE.apiToken) || undefined;

export const readTenant = (): string => Cookies.get(COOKIE.tenant) || DEFAULT_TENANT;

export const readAuthType = (): AuthType | null => {
  const value = Cookies.get(COOKIE.authType);
  return value === 'is-loggedin' || value === 'is-register' || value === 'login' ? value : null;
};

export const readUserCookie = () => parseSessionUser(Cookies.get(COOKIE.user));

export interface SessionCookies {
  apiToken: string;
  tenant: string;
  user: SessionUser;
  authType: AuthType;
  rememberMe: boolean;
}

export function writeSessionCookies({ apiToken, tenant, user, authType, rememberMe }: SessionCookies): void {
  const attrs = attributes(rememberMe);
  Cookies.set(COOKIE.apiToken, apiToken, attrs);
  Cookies.set(COOKIE.tenant, tenant, attrs);
  Cookies.set(COOKIE.userId, String(user.id), attrs);
  Cookies.set(COOKIE.user, serializeSessionUser({ ...user, rememberMe }), attrs);
  Cookies.set(COOKIE.authType, authType, attrs);
}

/** Rewrites the user cookie after a refresh, keeping the lifetime chosen at login. */
export function writeUserCookie(user: SessionUser): void {
  const rememberMe = Boolean(user.rememberMe);
  Cookies.set(COOKIE.user, serializeSessionUser(user), attributes(rememberMe));
  Cookies.set(COOKIE.userId, String(user.id), attributes(rememberMe));
}

export function clearSessionCookies(): void {
  for (const name of Object.values(COOKIE)) Cookies.remove(name, { path: '/' });
}
