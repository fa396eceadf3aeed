/**
 * The entry index.html loads: it lets the browser paint the boot screen (the HTML's "Loading…")
 * before any of the app's JavaScript runs, then starts the app. The app's modules are already on their
 * way (modulepreload links, build/preload-app.ts), so waiting one frame costs nothing, while running
 * them first would hold the first paint back by their whole evaluation on a slow tablet.
 *
 * With the app it starts the page module the address needs, so its download overlaps the app's
 * start-up instead of following it (each is also a lazy route in routing/routes.tsx).
 */
// The app's own stylesheet (about 2 kB) is this entry's, so the build inlines it into index.html
// (build/inline-entry-css.ts): no request before the first paint or before the app starts.
import './styles/global.css';
import { prefetchEmbedDetail } from './models/embed-detail-prefetch';
import { prerenderedLoginForm, recordEarlyUse } from './pages/login/prerendered-login';
import { drawnHeldRoot, holdEarlyUse } from './prerender/drawn-home';
import { COOKIE } from './session/storage-keys';

// zod without its compiled fast path, set before any schema is built (zod reads this object when it
// loads, and each object schema reads it when built): the fast path compiles parsers with
// `new Function`, which the portal's Content-Security-Policy (no 'unsafe-eval') refuses and reports as a
// violation on every page. Interpreted parsing is plenty for API answers.
(globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig = { jitless: true };

const path = window.location.pathname.toLowerCase();

// A share or embed link: its one API call starts now, with the scripts' download.
const publicLink = /^\/(?:embed|share)\/([^/]+)\/?$/.exec(window.location.pathname);
const publicToken = decodeToken(publicLink?.[1]);
if (publicToken) prefetchEmbedDetail(publicToken);

/** A token from the address; undefined for a malformed one (the page then reports it itself). */
function decodeToken(segment: string | undefined): string | undefined {
  try {
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function start(): void {
  // An embed or share link is not the app: one frame (and the school's header on a share page), drawn
  // without React (pages/share/embed-start.ts, share-start.ts). Case-insensitive, like the router's
  // /embed/:token and /share/:token (pages/share/embed.page.tsx).
  const link = /^\/(embed|share)\/([^/]+)\/?$/i.exec(window.location.pathname);
  if (link) {
    const root = document.getElementById('root') ?? document.body;
    const token = decodeToken(link[2]);
    if (link[1]!.toLowerCase() === 'embed') {
      void import('./pages/share/embed-start').then((m) => m.startEmbedPage(token, root));
    } else {
      void import('./pages/share/share-start').then((m) => m.startSharePage(token, root));
    }
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

let started = false;
const once = () => {
  if (started) return;
  started = true;
  start();
};
// Read here rather than with session/cookies.ts, which would bring js-cookie and the session's schemas
// into the entry.
const signedIn = document.cookie.split('; ').some((c) => c.startsWith(`${COOKIE.apiToken}=`));
// A signed-in visitor is moved on by the app, and a link with parameters may ask the app for more than
// the form: both start the app at once, as on every other page.
const drawnLogin = signedIn || window.location.search ? null : prerenderedLoginForm();

// A signed-in home drawn by the server (prerender/drawn-home.ts) waits for first use just the same, as
// do the other pages drawn with the same hand-over (the sign-up, /choose-subscription, the users list).
// A drawn guest page (the sign-up, the plans) for a signed-in visitor or a link with parameters: the app
// starts at once, as for the login.
const heldRoot = drawnHeldRoot();
const guestPage = ['signup', 'choose-subscription'].includes(heldRoot?.dataset.prerendered ?? '');
const drawnHeld = guestPage && (signedIn || window.location.search) ? null : heldRoot;

if (drawnLogin || drawnHeld) {
  // The page came drawn (build/prerender-login.ts, the API's drawn home): nothing runs until the visitor
  // uses it, so a tablet spends its first seconds on nothing but the page; the app's chunks still
  // download meanwhile (modulepreload). What the visitor does before the app is up carries over
  // (prerendered-login.ts, drawn-home.ts).
  if (drawnLogin) recordEarlyUse(drawnLogin);
  if (drawnHeld) holdEarlyUse(drawnHeld);
  // The pages drawn for a session hold the app's preloads back until they have loaded.
  if (drawnHeld && ['home', 'users-list', 'subscription'].includes(drawnHeld.dataset.prerendered ?? '')) {
    whenLoaded(addAppPreloads);
  }
  const FIRST_USE = ['pointerdown', 'keydown', 'focusin', 'touchstart'] as const;
  const onFirstUse = (event: Event) => {
    for (const type of FIRST_USE) document.removeEventListener(type, onFirstUse, true);
    // The drawn page answers the use first (a menu opens, a pressed button shows it is busy) and that
    // answer is painted before the app's scripts run: started at once, their evaluation could land
    // between a press and its click and hold the answer back by as long (issue 18 §13).
    if (event.type === 'pointerdown' || event.type === 'touchstart') afterPress(() => afterPaint(once));
    else afterPaint(once);
  };
  for (const type of FIRST_USE) document.addEventListener(type, onFirstUse, { capture: true, passive: true });
} else {
  // After the next frame is painted (a task queued from requestAnimationFrame runs after that paint);
  // the timer covers a tab opened in the background, where frames wait until it is shown.
  afterPaint(once);
}

/** After the next frame is painted (a task queued from requestAnimationFrame runs after that paint). */
function afterPaint(then: () => void): void {
  requestAnimationFrame(() => setTimeout(then, 0));
  // A tab in the background paints no frames.
  setTimeout(then, 200);
}

/** After the press that has begun ends (its click, if any, has been dispatched), or 500 ms at most. */
function afterPress(then: () => void): void {
  const ENDS = ['click', 'pointerup', 'pointercancel', 'touchend', 'touchcancel'] as const;
  let done = false;
  const end = () => {
    if (done) return;
    done = true;
    for (const type of ENDS) document.removeEventListener(type, end, true);
    // A pointerup's click is dispatched in the same task: let it run first.
    setTimeout(then, 0);
  };
  for (const type of ENDS) document.addEventListener(type, end, { capture: true, passive: true });
  setTimeout(end, 500);
}

function whenLoaded(then: () => void): void {
  if (document.readyState === 'complete') then();
  else window.addEventListener('load', then, { once: true });
}

/** The app's module preloads a drawn home holds back until it has loaded (prerender/drawn-document.ts). */
function addAppPreloads(): void {
  const template = document.getElementById('app-preloads');
  if (template instanceof HTMLTemplateElement) document.head.append(template.content);
}
