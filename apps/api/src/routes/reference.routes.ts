import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type RequestHandler, type Router } from 'express';
import { z } from 'zod';
import { openApiDocument } from '../openapi/document.ts';
import { html } from '../openapi/describe.ts';
import { API, defineRoute, routerOf } from './define-route.ts';

const require = createRequire(import.meta.url);
const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** The files of swagger-ui-dist the page loads; nothing else of the package is served (no demo page). */
const SWAGGER_UI_FILES = new Set([
  '/swagger-ui-bundle.js',
  '/swagger-ui.css',
  '/favicon-32x32.png',
  '/favicon-16x16.png',
]);

/** Our start script: a file, since the content security policy allows no inline script. */
const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#reference',
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false,
    persistAuthorization: false,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Helix API reference</title>
<link rel="icon" type="image/png" href="/api/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
<main id="reference" aria-label="Helix API reference"><noscript>The reference needs JavaScript; the document itself is at <a href="/api/openapi.json">/api/openapi.json</a>.</noscript></main>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/assets/init.js"></script>
</body>
</html>
`;

const files = express.static(SWAGGER_UI_DIR, { index: false, maxAge: '1d', fallthrough: true });
const assets: RequestHandler = (req, res, next) => {
  if (req.path === '/init.js') {
    res.type('text/javascript').set('Cache-Control', 'public, max-age=3600').send(INIT_SCRIPT);
    return;
  }
  if (!SWAGGER_UI_FILES.has(req.path)) {
    next();
    return;
  }
  files(req, res, next);
};

/** Nothing: the reference needs no dependencies. */
type None = Record<string, never>;

const routes = [
  defineRoute<None>({
    method: 'get',
    path: '/api/openapi.json',
    tag: 'Reference',
    summary: 'This OpenAPI 3.1 document',
    ok: {
      type: 'application/json',
      schema: z.looseObject({ openapi: z.string() }),
      description: 'The document.',
    },
    handler: () => {
      // Generated when the app is made: every route module has declared its routes by then.
      const document = JSON.stringify(openApiDocument());
      return (_req, res) => {
        res.type('application/json').set('Cache-Control', 'public, max-age=300').send(document);
      };
    },
  }),
  defineRoute<None>({
    method: 'get',
    path: '/api/docs',
    tag: 'Reference',
    summary: 'The interactive API reference (HTML)',
    ok: html('The reference page.'),
    handler: () => (_req, res) => {
      res.type('html').set('Cache-Control', 'public, max-age=300').send(PAGE);
    },
  }),
  defineRoute<None>({
    method: 'get',
    path: '/api/docs/assets/:file',
    tag: 'Reference',
    summary: "The reference page's script, stylesheet and icon (Swagger UI, from this server)",
    errors: [404],
    ok: [
      {
        type: ['text/javascript', 'application/javascript', 'text/css', 'image/png'],
        description: 'The file.',
      },
      { status: 304, description: 'Not modified.' },
    ],
    handler: () => (req, res, next) => {
      // express.static reads the file name from the path: the route's own prefix is taken off.
      req.url = `/${req.params.file}`;
      assets(req, res, next);
    },
  }),
];

/**
 * The API reference (apps/api/API.md): GET /api/openapi.json, generated once from the routes'
 * declarations (defineRoute), and GET /api/docs, Swagger UI served from node_modules
 * (swagger-ui-dist; no CDN, so it works offline and under the app's content security policy: only
 * 'self' scripts).
 */
export const referenceRoutes = (): Router => routerOf<None>({}, API, routes);
