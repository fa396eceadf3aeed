/**
 * The viewer tokens the API gave this viewer on share and embed loads (GET /api/viewer/model answers
 * the token each load was counted under), kept in the viewer origin's localStorage, one per link, and
 * sent back as `kept` on the next load of the link so that a viewer's reloads stay one viewer (the
 * server decides: it keeps the viewer only for a token it signed for this link and the client's
 * address; otherwise the page's fresh token counts). No third-party cookie, nothing about the person;
 * clearing site data makes the next load a new viewer.
 */

/** The localStorage key (the web app's pages kept them under the same name on their own origin). */
const STORAGE_KEY = '__viewer__tokens';

/** VIEWER_TOKEN_PATTERN (@helix/shared/schemas/model), not imported: the viewer stays free of zod. */
export const KEPT_TOKEN_SHAPE = /^[A-Za-z0-9_.-]{16,400}$/;
/** Links remembered, the most recent last (a token is about 150 characters). */
const KEPT_LINKS = 20;

type Store = Pick<Storage, 'getItem' | 'setItem'>;

/** A link's entry: enough of its token to tell links apart (a clash only costs a new viewer). */
const linkKey = (link: string): string => link.slice(0, 16);

function safeStorage(): Store | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function entries(storage: Store | null): [string, string][] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(STORAGE_KEY) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (e): e is [string, string] =>
        Array.isArray(e) &&
        typeof e[0] === 'string' &&
        typeof e[1] === 'string' &&
        KEPT_TOKEN_SHAPE.test(e[1]),
    );
  } catch {
    return [];
  }
}

/** The token kept for this link, if any (a damaged store is no token). */
export function keptViewerToken(link: string, storage: Store | null = safeStorage()): string | undefined {
  const key = linkKey(link);
  return entries(storage).find(([k]) => k === key)?.[1];
}

/** Keeps the server's token for this link (storage refused: the next load is a new viewer). */
export function keepViewerToken(link: string, viewer: string, storage: Store | null = safeStorage()): void {
  if (!KEPT_TOKEN_SHAPE.test(viewer)) return;
  const key = linkKey(link);
  const kept = [...entries(storage).filter(([k]) => k !== key), [key, viewer] as [string, string]];
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(kept.slice(-KEPT_LINKS)));
  } catch {
    // Storage full or refused: nothing kept.
  }
}
