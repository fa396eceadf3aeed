import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { setClientEffects } from './api/client-effects';
import { loginPath } from './api/failure';
import { App } from './app';
import { installGlobalErrorLogger } from './logging/error-logger';
import { quietPwaOnFramedPages } from './pwa/framed-pages';
import { pathKind } from './routing/guard';
import { routes } from './routing/routes';
import { clearLocalStorage } from './session/local-storage';
import { appStore, brandAtom, multipleLoginOpenAtom, sessionUserAtom } from './session/session.atoms';
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
// Over a drawn page (the prerendered login, build/prerender-login.ts) the first render waits for the
// route's code, so the drawn page is replaced by the same page, never by a loading screen.
if (container.dataset.prerendered) whenRouterReady(render);
else render();

function whenRouterReady(then: () => void): void {
  if (router.state.initialized) return then();
  const stop = router.subscribe((state) => {
    if (!state.initialized) return;
    stop();
    then();
  });
}
