import { hydrateServerAnswers } from '../api/query-client';
import { readPageData } from './page-data';
import { readTenant } from '../session/cookies';
import { appStore, sessionReadyAtom, sessionUserAtom } from '../session/session.atoms';
import type { SessionUser } from '../session/session-user';

/** Pages the server renders for nobody in particular (the same for every signed-out visitor). */
const GUEST_PAGES = ['login', 'signup', 'choose-subscription', 'join'];

/**
 * Whether the browser may hydrate the markup the server rendered in `root` (`data-server-rendered` says
 * which page), and if so, sets up what the server rendered it with, so the app's first render is the
 * same: the page's answers (the query client's dehydrated state), and for a signed-in page the session user it was rendered for, with the session
 * taken as read (the refresh started by initSession goes on behind it). A page rendered for another
 * session of this browser, or a guest page a signed-in visitor or an address with parameters reaches
 * (the app moves them on), is not adopted: the app renders itself over it.
 */
export function adoptServerRender(root: HTMLElement): boolean {
  const kind = root.dataset.serverRendered;
  if (!kind) return false;
  const user = appStore.get(sessionUserAtom);
  if (GUEST_PAGES.includes(kind)) {
    if (user || window.location.search) return false;
    const rendered = readPageData();
    if (rendered?.queries) hydrateServerAnswers(rendered.queries);
    return true;
  }
  const rendered = readPageData();
  if (!rendered || !isThisSession(rendered, user)) return false;
  if (rendered.queries) hydrateServerAnswers(rendered.queries);
  adoptUser(rendered.user, user);
  return true;
}

function isThisSession(rendered: { tenant?: string; userId?: number }, user: SessionUser | null): boolean {
  return user !== null && rendered.tenant === readTenant() && rendered.userId === user.id;
}

/** The user the server rendered the page for (read from the database just now), as this browser keeps it. */
function adoptUser(rendered: Omit<SessionUser, 'rememberMe'> | undefined, current: SessionUser | null): void {
  if (rendered && current) appStore.set(sessionUserAtom, { ...rendered, rememberMe: current.rememberMe });
  appStore.set(sessionReadyAtom, true);
}

// Its own module so the share page marks its hydration without the app's session code.
export { markRendered } from './mark-rendered';
