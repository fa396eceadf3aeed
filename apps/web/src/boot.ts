/**
 * The entry index.html loads: it lets the browser paint the page (the server's markup, or the boot
 * screen's "Loading…") before any of the app's JavaScript runs, then starts the app. The app's modules are already on their
 * way (modulepreload links, build/preload-app.ts), so waiting one frame costs nothing, while running
 * them first would hold the first paint back by their whole evaluation on a slow tablet.
 *
 * With the app it starts the page module the address needs, so its download overlaps the app's
 * start-up instead of following it (each is also a lazy route in routing/routes.tsx).
 */
// The app's own stylesheet (about 2 kB) is this entry's, so the build inlines it into index.html
// (build/inline-entry-css.ts): no request before the first paint or before the app starts.
import './styles/global.css';
import { holdSubmitsUntilHydrated } from './forms/press-before-hydration';

// zod without its compiled fast path, set before any schema is built (zod reads this object when it
// loads, and each object schema reads it when built): the fast path compiles parsers with
// `new Function`, which the portal's Content-Security-Policy (no 'unsafe-eval') refuses and reports as a
// violation on every page. Interpreted parsing is plenty for API answers.
(globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig = { jitless: true };

const path = window.location.pathname.toLowerCase();

function start(): void {
  // An embed or share link is not the app: React drew it on the server (one frame, and the school's
  // header on a share page, which pages/share/link-page-start.ts hydrates). Case-insensitive, like the router's /embed/:token and
  // /share/:token (pages/share/embed.page.tsx).
  const link = /^\/(embed|share)\/([^/]+)\/?$/i.exec(window.location.pathname);
  if (link) {
    const root = document.getElementById('root') ?? document.body;
    const kind = link[1]!.toLowerCase() === 'embed' ? 'embed' : 'share';
    void import('./pages/share/link-page-start').then((m) => m.startLinkPage(kind, root));
    return;
  }
  void import('./main');
  if (/^\/login(\/[^/]+)?\/?$/.test(path)) {
    void import('./ui/themed');
    void import('./layouts/auth-layout');
    void import('./pages/login/auth.page');
  } else if (/^\/(signup|choose-subscription)(\/[^/]+)?\/?$/.test(path)) {
    void import('./ui/themed');
    void import('./layouts/auth-layout');
    void import('./pages/login/auth.page').then((m) => m.loadSignupFlow());
  } else if (/^\/join(\/[^/]+)?\/?$/.test(path)) {
    void import('./ui/themed');
    void import('./layouts/auth-layout');
    void import('./pages/lessons/join.page');
  } else if (/^\/user\/settings\/users-list\/?$/.test(path)) {
    void import('./ui/themed');
    void import('./layouts/app-layout');
    void import('./layouts/settings-layout');
    void import('./pages/users/users-list.page');
  } else if (/^\/user\/settings\/subscription\/?$/.test(path)) {
    void import('./ui/themed');
    void import('./layouts/app-layout');
    void import('./layouts/settings-layout');
    void import('./pages/subscription/subscription.page');
  } else if (/^\/(user\/home|models)\/?$/.test(path)) {
    void import('./ui/themed');
    void import('./layouts/app-layout');
    void import('./pages/models/models.page');
  }
}

// The app starts after the next frame is painted (a task queued from requestAnimationFrame runs after
// that paint); the timer covers a tab opened in the background, where frames wait until it is shown.
// A page the server rendered is painted first too: module scripts run when the document is parsed,
// before the browser's first paint, so starting at once would hold the server's markup off the screen
// while the app's modules are evaluated (on /user/settings/subscription the first paint came 180 ms
// after the document was parsed). Its code is already on its way (modulepreload), so one frame costs
// nothing; what is typed or pressed meanwhile is kept (forms/press-before-hydration.ts).
const root = document.getElementById('root');
if (root?.dataset.serverRendered) holdSubmitsUntilHydrated(root);
let started = false;
const once = () => {
  if (started) return;
  started = true;
  start();
};
requestAnimationFrame(() => setTimeout(once, 0));
setTimeout(once, 200);
