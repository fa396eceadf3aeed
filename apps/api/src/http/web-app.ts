import path from 'node:path';
import express, { type RequestHandler, type Router } from 'express';

const NO_CACHE = new Set(['index.html', 'sw.js', 'registerSW.js', 'manifest.webmanifest']);

/**
 * The built web app: static files, and index.html for every other GET that is not an API, dev or file
 * path (client-side routes). index.html and the service worker are never cached, so a new build is
 * picked up; hashed assets are cached for a year.
 */
export function webApp(dir: string): Router {
  const root = path.resolve(dir);
  const index = path.join(root, 'index.html');
  const router = express.Router();
  router.use(
    express.static(root, {
      index: false,
      setHeaders(res, filePath) {
        const name = path.basename(filePath);
        if (NO_CACHE.has(name)) res.setHeader('Cache-Control', 'no-cache');
        else if (filePath.startsWith(path.join(root, 'assets') + path.sep)) {
          res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        }
      },
    }),
  );
  const fallback: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (/^\/(api|dev)(\/|$)/.test(req.path)) return next();
    // A missing file (a path whose last part has an extension) is a 404, not the app.
    if (/\.[A-Za-z0-9]+$/.test(req.path)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index, (err) => {
      if (err) next(err);
    });
  };
  router.use(fallback);
  return router;
}
