import { atom, createStore } from 'jotai';
import type { AuthType } from '@helix/shared';
import type { SessionUser } from './session-user';

/**
 * One store for the whole app, so code outside React (the API client's 401 handling, start-up) changes
 * the same session the components read.
 */
export const appStore = createStore();

export const sessionUserAtom = atom<SessionUser | null>(null);
export const authTypeAtom = atom<AuthType | null>(null);

/** False while the session user is refreshed at start-up, so guards do not act on stale data. */
export const sessionReadyAtom = atom(false);

export const multipleLoginOpenAtom = atom(false);

/**
 * True once this page signed the user out (logout, 401, popup). The guard then sends them to login
 * without remembering the page as "where to return", which is only for visitors arriving signed out.
 */
export const signedOutAtom = atom(false);

/**
 * The white-label brand of this visit. Kept in memory as well as in local storage because a 401
 * clears local storage, yet the user must still land on /login/{brand}.
 */
export const brandAtom = atom<string | null>(null);

export const sessionAtom = atom((get) => ({ user: get(sessionUserAtom), authType: get(authTypeAtom) }));
