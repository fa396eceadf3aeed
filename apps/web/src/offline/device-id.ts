import { LOCAL } from '../session/storage-keys';

let fallback: string | undefined;

/** 16 random bytes, base64url (what the server accepts as a key, device id or copy id). */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/**
 * This browser's own id, sent when a model is pinned: the server issues the offline copy to the user
 * on this device, and counts views made offline only with that copy. Kept in localStorage, so pinning
 * again on the device renews the same copy; the pin row keeps the id it was issued with, so a cleared
 * localStorage (sign-out clears it, and the pins with it) never orphans a queued view. Without storage
 * the id lives as long as the page.
 */
export function deviceId(): string {
  try {
    const kept = window.localStorage.getItem(LOCAL.deviceId);
    if (kept) return kept;
    const made = randomId();
    window.localStorage.setItem(LOCAL.deviceId, made);
    return made;
  } catch {
    fallback ??= randomId();
    return fallback;
  }
}
