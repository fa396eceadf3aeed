import { VIEWER_ID_PATTERN } from '@helix/shared/schemas/model';
import { LOCAL } from '../session/storage-keys';

/** 16 random bytes in base64url (22 characters): matches VIEWER_ID_PATTERN. */
function newViewerId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Without storage (private mode, blocked), one id per page load: reloads then count again. */
let memory: string | null = null;

/**
 * The first-party viewer id of the share and embed pages: random, kept in this origin's localStorage
 * (so it is the same for every site that embeds a Helix link, and no third-party cookie is involved),
 * sent with the viewer lookup so that a viewer's reloads of a model count one view per window. It says
 * nothing about the person; clearing site data makes a new one.
 */
export function viewerId(storage: Pick<Storage, 'getItem' | 'setItem'> | null = safeStorage()): string {
  try {
    const stored = storage?.getItem(LOCAL.viewerId);
    if (stored && VIEWER_ID_PATTERN.test(stored)) return stored;
    const id = newViewerId();
    storage?.setItem(LOCAL.viewerId, id);
    if (storage) return id;
  } catch {
    // Storage refused: fall back to memory below.
  }
  memory ??= newViewerId();
  return memory;
}

function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The viewer frame's address with the viewer id added (the viewer passes it to the API). */
export function withViewerId(frameUrl: string, id: string): string {
  const url = new URL(frameUrl);
  url.searchParams.set('viewer', id);
  return url.href;
}
