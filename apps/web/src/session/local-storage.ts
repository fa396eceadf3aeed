import { LOCAL } from './storage-keys';

// Storage can throw (private mode, disabled storage); the app must keep working without it.
const safely = <T>(run: () => T, fallback: T): T => {
  try {
    return run();
  } catch {
    return fallback;
  }
};

export const readBrand = (): string | null =>
  safely(() => window.localStorage.getItem(LOCAL.customBrand) || null, null);

export const rememberBrand = (brand: string): void =>
  safely(() => window.localStorage.setItem(LOCAL.customBrand, brand), undefined);

export const clearLocalStorage = (): void => safely(() => window.localStorage.clear(), undefined);

/** Only same-site paths are followed, so a crafted value cannot send the user to another site. */
const isSafeRedirect = (path: string | null | undefined): path is string =>
  typeof path === 'string' && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');

export const rememberRedirect = (path: string): void =>
  safely(() => window.localStorage.setItem(LOCAL.redirect, path), undefined);

/** The page to return to after signing in, without forgetting it (safe to call while rendering). */
export function peekRedirect(): string | null {
  const value = safely(() => window.localStorage.getItem(LOCAL.redirect), null);
  return isSafeRedirect(value) ? value : null;
}

export const forgetRedirect = (): void =>
  safely(() => window.localStorage.removeItem(LOCAL.redirect), undefined);

/** Reads and forgets the page to return to after signing in. */
export function takeRedirect(): string | null {
  const value = safely(() => window.localStorage.getItem(LOCAL.redirect), null);
  safely(() => window.localStorage.removeItem(LOCAL.redirect), undefined);
  return isSafeRedirect(value) ? value : null;
}
