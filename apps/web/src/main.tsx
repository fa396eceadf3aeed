import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { setClientEffects } from './api/client-effects';
import { hydrateServerAnswers } from './api/query-client';
import { loginPath } from './api/failure';
import { App } from './app';
import { installGlobalErrorLogger } from './logging/error-logger';
import { seedFirstListing } from './models/listing-seed';
import { readDrawnHomeData, readDrawnPageData } from './prerender/drawn-data';
import { seedFirstAnswer, type FirstAnswerName } from './prerender/first-answers';
import { drawnHeldRoot, takeOverWhenReplaced } from './prerender/drawn-home';
import { quietPwaOnFramedPages } from './pwa/framed-pages';
import { pathKind } from './routing/guard';
import { routes } from './routing/routes';
import { readTenant } from './session/cookies';
import { clearLocalStorage } from './session/local-storage';
import {
  appStore,
  brandAtom,
  multipleLoginOpenAtom,
  sessionReadyAtom,
  sessionUserAtom,
} from './session/session.atoms';
import { clearLocalSession, initSession } from './session/session';
import { toastError } from './ui/notify';

installGlobalErrorLogger();
quietPwaOnFramedPages(window.location.pathname);
// The session is read before the first render so the guard never acts on an empty session.
initSession();
// The offline services (another user's data cleared, queued edits replayed now and whenever the browser
// is back online, pinned models freed on sign-out, views made offline sent) start with the first signed-in
// user, from their own chunk (precached like every other): the login page never downloads IndexedDB's
// library, and a signed-in page does not wait for it.
whenSignedIn(() => void import('./offline/offline-start').then((m) => m.startOfflineServices()));

function whenSignedIn(start: () => void): void {
  if (appStore.get(sessionUserAtom)) return start();
  const stop = appStore.sub(sessionUserAtom, () => {
    if (!appStore.get(sessionUserAtom)) return;
    stop();
    start();
  });
}

const router = createBrowserRouter(routes);

setClientEffects({
  multipleLogin: () => appStore.set(multipleLoginOpenAtom, true),
  logout: () => {
    // The brand atom survives clearing local storage, so the guard still picks /login/{brand}.
    clearLocalSession();
    clearLocalStorage();
    // On a signed-in page the guard redirects; elsewhere nothing would, so go to login here.
    if (pathKind(router.state.location.pathname) !== 'authenticated') {
      void router.navigate(loginPath(appStore.get(brandAtom)), { replace: true });
    }
  },
  toastError: (message) => toastError(message),
});

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// A transition: React renders the first page in slices and yields between them, so a slow tablet
// stays responsive (no single long task) while the boot screen is still showing.
const root = createRoot(container);
const render = () =>
  startTransition(() => {
    root.render(
      <StrictMode>
        <App router={router} />
      </StrictMode>,
    );
  });
// Over a drawn page (the prerendered login, build/prerender-login.ts; a signed-in home, the API's
// drawn-home.ts) the first render waits for the route's code and the session refresh, so the drawn page
// is replaced by the same page, never by a loading screen. A drawn home's grid starts with the answer
// the page was drawn with, when it is this browser's session's.
if (container.dataset.prerendered === 'home') {
  const drawn = readDrawnHomeData();
  if (drawn && drawn.tenant === readTenant() && drawn.userId === appStore.get(sessionUserAtom)?.id) {
    seedFirstListing(drawn.listing);
  }
  takeOverWhenReplaced(container);
} else if (drawnHeldRoot() === container) {
  // The other pages drawn with the same hand-over (the sign-up, /choose-subscription, the users list):
  // their first answers, when the page was drawn for this browser's session (or for nobody's).
  const drawn = readDrawnPageData();
  const whose =
    drawn?.userId === undefined ||
    (drawn.tenant === readTenant() && drawn.userId === appStore.get(sessionUserAtom)?.id);
  if (drawn && whose) {
    for (const [name, answer] of Object.entries(drawn.answers))
      seedFirstAnswer(name as FirstAnswerName, answer);
    if (drawn.queries) hydrateServerAnswers(drawn.queries);
  }
  takeOverWhenReplaced(container);
}
if (container.dataset.prerendered) whenReady(render);
else render();

function whenReady(then: () => void): void {
  const ready = () => router.state.initialized && appStore.get(sessionReadyAtom);
  if (ready()) return then();
  const stops = [router.subscribe(check), appStore.sub(sessionReadyAtom, check)];
  function check() {
    if (!ready()) return;
    stops.forEach((stop) => stop());
    then();
  }
}
