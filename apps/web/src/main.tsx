import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { setClientEffects } from './api/client-effects';
import { loginPath } from './api/failure';
import { App } from './app';
import { installGlobalErrorLogger } from './logging/error-logger';
import { adoptServerRender, markRendered } from './server-render/adopt';
import { loadMatchedRoutes } from './server-render/matched-routes';
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

type Router = ReturnType<typeof createBrowserRouter>;
let router: Router | null = null;

setClientEffects({
  multipleLogin: () => appStore.set(multipleLoginOpenAtom, true),
  logout: () => {
    // The brand atom survives clearing local storage, so the guard still picks /login/{brand}.
    clearLocalSession();
    clearLocalStorage();
    // On a signed-in page the guard redirects; elsewhere nothing would, so go to login here.
    if (router && pathKind(router.state.location.pathname) !== 'authenticated') {
      void router.navigate(loginPath(appStore.get(brandAtom)), { replace: true });
    }
  },
  toastError: (message) => toastError(message),
});

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

void start(container);

/**
 * A page the server rendered (src/server-render/render-page.server.tsx) is hydrated as soon as the
 * code of its routes has loaded: React adopts the server's markup, with the answers and the session
 * the server rendered it with (adoptServerRender), and renders nothing again. Any other page (the app
 * shell's "Loading…") is rendered, as a transition: a slow tablet stays responsive meanwhile.
 */
async function start(root: HTMLElement): Promise<void> {
  if (adoptServerRender(root)) {
    // The matched lazy routes first: the router then starts on the page, not on its loading screen.
    await loadMatchedRoutes(routes, window.location);
    router = createBrowserRouter(routes);
    const app = router;
    hydrateRoot(
      root,
      <StrictMode>
        <App router={app} onMounted={() => markRendered(root, 'hydrated')} />
      </StrictMode>,
    );
    return;
  }
  router = createBrowserRouter(routes);
  const app = router;
  const reactRoot = createRoot(root);
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <App router={app} onMounted={() => markRendered(root, 'rendered')} />
      </StrictMode>,
    );
  });
}
