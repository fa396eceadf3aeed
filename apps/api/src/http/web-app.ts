import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type RequestHandler, type Router } from 'express';
import expressStaticGzip from 'express-static-gzip';

const NO_CACHE = new Set([
  'index.html',
  'login.html',
  'login-password.html',
  'signup.html',
  'signup-password.html',
  'embed.html',
  'sw.js',
  'registerSW.js',
  'manifest.webmanifest',
]);
/** The login page without a brand in the path: the one the build renders. */
const LOGIN = /^\/login\/?$/;
/** The sign-up page without a brand in the path: rendered at build time too. */
const SIGNUP = /^\/signup\/?$/;
/** The web app's session cookie (apps/web/src/session/storage-keys.ts). */
const SESSION_COOKIE = /(?:^|;\s*)apiToken=/;
/** An embed or share link (case-insensitive, like the web app's router). */
const PUBLIC_LINK = /^\/(?:embed|share)\/[^/]+\/?$/i;
const IMMUTABLE = 'public, max-age=31536000, immutable';
const SOURCE_MAP = /\.map(\.(br|gz))?$/i;

/**
 * The built web app: static files, and index.html for every other GET that is not an API, dev or file
 * path (client-side routes). index.html and the service worker are never cached, so a new build is
 * picked up; hashed assets are cached for a year.
 *
 * Text files are sent compressed: the build writes `.br` and `.gz` beside them
 * (vite-plugin-compression2) and express-static-gzip picks the one the request's Accept-Encoding
 * allows (brotli first), with `Vary: Accept-Encoding` for caches. The compressed files are found when
 * the server starts, so a rebuild is served compressed after a restart (as `npm start` does).
 *
 * `/login` on the portal's own host is login.html, the login page rendered at build time
 * (apps/web/build/render-login.ts). Other hosts are tenants' custom domains, whose login shows the
 * tenant's look once the app has asked for it: they get the app shell, as every other page does.
 * The build renders it twice: login.html offers "Continue with Google", login-password.html does not
 * (for a server without a Google provider, `googleSignIn` false); a build without the file that fits
 * gets the app shell, whose app asks GET /api/auth/providers.
 * `/signup` on the portal's own host, without parameters and for a browser without a session, is
 * signup.html (or signup-password.html), the sign-up form rendered at build time the same way (a signed-in
 * visitor is moved on by the app, and `?token=` opens the invitation page).
 * `/embed/{token}` and `/share/{token}` are embed.html, the shell without the app's module preloads
 * (apps/web/build/embed-document.ts): the embed and share pages are not the app.
 */
export function webApp(dir: string, options: { portalHost?: string; googleSignIn?: boolean } = {}): Router {
  const root = path.resolve(dir);
  const loginFile = options.googleSignIn === false ? 'login-password.html' : 'login.html';
  const loginPage = existsSync(path.join(root, loginFile));
  const signupFile = options.googleSignIn === false ? 'signup-password.html' : 'signup.html';
  const signupPage = existsSync(path.join(root, signupFile));
  const embedPage = existsSync(path.join(root, 'embed.html'));
  const assets = path.join(root, 'assets') + path.sep;
  const serve = expressStaticGzip(root, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: {
      index: false,
      setHeaders(res, filePath) {
        // For a compressed variant the headers follow the file it stands for.
        const original = filePath.replace(/\.(br|gz)$/, '');
        if (NO_CACHE.has(path.basename(original))) res.setHeader('Cache-Control', 'no-cache');
        else if (original.startsWith(assets)) res.setHeader('Cache-Control', IMMUTABLE);
      },
    },
  });
  const router = express.Router();
  // Source maps are a build artefact (apps/web/sourcemaps/), never public: one left in dist/ by an
  // older build is not served either (404, as a missing file).
  router.use((req, _res, next) => next(SOURCE_MAP.test(req.path) ? 'router' : undefined));
  router.use(serve);
  const fallback: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (/^\/(api|dev)(\/|$)/.test(req.path)) return next();
    // A missing file (a path whose last part has an extension) is a 404, not the app.
    if (/\.[A-Za-z0-9]+$/.test(req.path)) return next();
    // The app shell, compressed like any other file.
    const url = req.url;
    const portal = req.hostname === options.portalHost;
    const builtLogin = loginPage && LOGIN.test(req.path) && portal;
    const builtSignup =
      signupPage &&
      SIGNUP.test(req.path) &&
      portal &&
      !req.url.includes('?') &&
      !SESSION_COOKIE.test(req.headers.cookie ?? '');
    req.url = builtLogin
      ? `/${loginFile}`
      : builtSignup
        ? `/${signupFile}`
        : embedPage && PUBLIC_LINK.test(req.path)
          ? '/embed.html'
          : '/index.html';
    serve(req, res, (err?: unknown) => {
      req.url = url;
      next(err);
    });
  };
  router.use(fallback);
  return router;
}
