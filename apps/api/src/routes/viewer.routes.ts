import type { RequestHandler, Router } from 'express';
import { z } from 'zod';
import {
  ViewerModel,
  ViewerModelQuery,
  ViewerRecordGrant,
  ViewerRecordQuery,
} from '@helix/shared/schemas/model';
import { AppError, type Config } from '@helix/server';
import type { ServerDeps } from '@helix/server/deps';
import { authorizeModelFile } from '@helix/server/models/model-file.query';
import { loadViewerModel } from '@helix/server/models/viewer-model.query';
import { authorizeRecording } from '@helix/server/models/viewer-record.query';
import { imageKeyOf } from '@helix/server/presenters/image-url';
import { storageOf } from '@helix/server/storage/create-storage';
import { viewerLoadLimit } from '../http/public-limit.ts';
import { rateLimiter } from '../http/rate-limit.ts';
import { serveStoredObject } from '../http/serve-object.ts';
import { inputOf } from '../http/validate.ts';
import { noContent, stored } from '../openapi/describe.ts';
import { API, defineRoute, routerOf } from './define-route.ts';

/** The viewer host (another origin) may read these answers: CORS for VIEWER_URL's origin only. */
function viewerCors(config: Config): RequestHandler {
  const allowed = new URL(config.VIEWER_URL).origin;
  return (req, res, next) => {
    res.vary('Origin');
    if (req.headers.origin === allowed) {
      // setHeader, not res.set: every page load's viewer call passes here, and these need no charset.
      res.setHeader('Access-Control-Allow-Origin', allowed);
      res.setHeader('Access-Control-Allow-Methods', 'GET, OPTIONS');
      // Ranged downloads of large models (a Range with several parts is not a simple request).
      res.setHeader('Access-Control-Allow-Headers', 'Range, If-Range');
      res.setHeader('Access-Control-Expose-Headers', 'Content-Range, Accept-Ranges, ETag, Content-Length');
      res.setHeader('Access-Control-Max-Age', '600');
    }
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    next();
  };
}

const FileParams = z.strictObject({
  id: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number),
});
const FileQuery = z.strictObject({
  exp: z
    .string()
    .regex(/^\d{1,12}$/)
    .transform(Number),
  sig: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  v: z
    .string()
    .regex(/^\d{1,10}$/)
    .optional(),
});
const ImageParams = z.strictObject({ key: z.string().max(200) });

const CONTENT_TYPES: Record<string, string> = { webp: 'image/webp', png: 'image/png' };

const viewerLimit = (deps: ServerDeps) =>
  rateLimiter({
    redis: deps.redis,
    prefix: deps.config.REDIS_PREFIX,
    logger: deps.logger,
    name: 'viewer-model',
    limit: deps.config.EMBED_RATE_LIMIT_MAX,
    windowSeconds: deps.config.EMBED_RATE_LIMIT_WINDOW_SECONDS,
  });

const preflight = (path: `/api${string}`) =>
  defineRoute({
    method: 'options',
    path,
    tag: 'Viewer',
    summary: 'CORS preflight of the viewer host',
    ok: noContent("CORS headers for VIEWER_URL's origin."),
    handler: (deps) => viewerCors(deps.config),
  });

/**
 * Base calls of the viewer host: the model lookup that counts a view, the signed .glb download, and the
 * public images (thumbnails, branding).
 */
/**
 * The page load's one API call. Mounted with the others (the router serves a variant of its path) and
 * served before the router by the public path (http/public-path.ts, app.ts) with the same chain.
 */
export const viewerModelRoute = defineRoute({
  method: 'get',
  path: '/api/viewer/model',
  tag: 'Viewer',
  summary: 'The model a viewer load shows (counts a view)',
  query: ViewerModelQuery,
  limited: true,
  errors: [403, 404, 409],
  ok: ViewerModel,
  // The page load's one API call: its limits (address, link) are checked in the script that counts
  // its view, one Redis round trip in all (public-limit.ts).
  before: (deps) => [viewerCors(deps.config)],
  handler: (deps) => async (req, res) => {
    res.set('Cache-Control', 'no-store');
    const query = inputOf(req, ViewerModelQuery);
    res.json(
      await loadViewerModel(deps, query, {
        ip: req.ip ?? '',
        limit: viewerLoadLimit(deps.config, req, query.subscription),
      }),
    );
  },
});

const routes = [
  preflight('/api/viewer/model'),
  preflight('/api/viewer/record'),
  preflight('/api/files/models/:id'),
  viewerModelRoute,
  // The Record control asks before each recording (the server decides again; no view is counted).
  defineRoute({
    method: 'get',
    path: '/api/viewer/record',
    tag: 'Viewer',
    summary: 'May this viewer record now?',
    query: ViewerRecordQuery,
    limited: true,
    errors: [403, 404],
    ok: ViewerRecordGrant,
    before: (deps) => [viewerCors(deps.config), viewerLimit(deps)],
    handler: (deps) => async (req, res) => {
      res.set('Cache-Control', 'no-store');
      res.json(await authorizeRecording(deps, inputOf(req, ViewerRecordQuery)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/files/models/:id',
    tag: 'Viewer',
    summary: "A model's .glb (signed URL from the viewer model answer)",
    description: 'A missing, malformed or expired signature answers 403.',
    params: FileParams,
    query: FileQuery,
    // A malformed signature is refused like a wrong one (403), not as bad input.
    describeOnly: ['query'],
    errors: [403, 404],
    ok: stored(['model/gltf-binary'], 'The file.'),
    before: (deps) => [viewerCors(deps.config)],
    handler: (deps) => async (req, res) => {
      const query = FileQuery.safeParse(req.query);
      const key = await authorizeModelFile(
        deps,
        inputOf(req, FileParams).id,
        query.success ? query.data : null,
      );
      await serveStoredObject(req, res, storageOf(deps), key, {
        'Content-Type': 'model/gltf-binary',
        'Cache-Control': 'private, max-age=600',
        'Content-Disposition': 'inline',
      });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/files/images/:key',
    tag: 'Viewer',
    summary: 'A public image (thumbnail, branding)',
    params: ImageParams,
    errors: [404],
    ok: stored(['image/webp', 'image/png'], 'The image.'),
    handler: (deps) => async (req, res) => {
      const name = inputOf(req, ImageParams).key;
      const key = imageKeyOf(name);
      if (!key) throw AppError.notFound();
      await serveStoredObject(req, res, storageOf(deps), key, {
        'Content-Type': CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream',
        'X-Content-Type-Options': 'nosniff',
        // Public, re-encoded images: the viewer host may use them as WebGL textures (needs CORS).
        'Access-Control-Allow-Origin': '*',
        // Keys are never reused for other bytes: a new upload gets a new key.
        'Cache-Control': 'public, max-age=31536000, immutable',
        'Content-Security-Policy': "default-src 'none'; sandbox",
      });
    },
  }),
];

export const viewerRoutes = (deps: ServerDeps): Router => routerOf(deps, API, routes);
