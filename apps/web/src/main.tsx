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
// library, and a signed-in page does not wait for it. They start once the first render is committed and
// the browser is idle, so they never lengthen the hydration or delay the answer to a first tap.
let firstRenderDone: () => void = () => undefined;
const firstRender = new Promise<void>((resolve) => (firstRenderDone = resolve));
whenSignedIn(() => {
  void firstRender.then(() =>
    whenIdle(() => void import('./offline/offline-start').then((m) => m.startOfflineServices())),
  );
});

/** `run` when the browser has nothing else to do (at most 2 s later). */
function whenIdle(run: () => void): void {
  if ('requestIdleCallback' in window) requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 0);
}

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

/** The app's first render is committed: marked (tests and the bench wait for it), and what waited starts. */
function mounted(root: HTMLElement, how: 'hydrated' | 'rendered'): void {
  markRendered(root, how);
  firstRenderDone();
}

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
    // As a transition, hydration yields to the browser every few milliseconds instead of being one
    // long task: a tap meanwhile is answered (React hydrates what was tapped first) and a slow
    // tablet's main thread is never held for the whole tree.
    startTransition(() => {
      hydrateRoot(
        root,
        <StrictMode>
          <App router={app} onMounted={() => mounted(root, 'hydrated')} />
        </StrictMode>,
      );
    });
    return;
  }
  router = createBrowserRouter(routes);
  const app = router;
  const reactRoot = createRoot(root);
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <App router={app} onMounted={() => mounted(root, 'rendered')} />
      </StrictMode>,
    );
  });
}
