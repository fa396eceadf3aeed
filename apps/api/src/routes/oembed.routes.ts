import type { ErrorRequestHandler, RequestHandler, Router } from 'express';
import { OEmbedQuery, OEmbedResponse } from '@helix/shared/schemas/oembed';
import type { ServerDeps } from '@helix/server/deps';
import { linkOfUrl, oembedFor } from '@helix/server/oembed/oembed.query';
import { rateLimiter, tokenLimiter } from '../http/rate-limit.ts';
import { inputOf } from '../http/validate.ts';
import { noContent } from '../openapi/describe.ts';
import { API, defineRoute, routerOf } from './define-route.ts';

/**
 * Any page may read the answers (consumers mostly fetch server-side; a browser page may too): no
 * credentials are involved, so `*`.
 */
const openCors: RequestHandler = (req, res, next) => {
  res.set('Access-Control-Allow-Origin', '*');
  if (req.method === 'OPTIONS') {
    res.set('Access-Control-Allow-Methods', 'GET, OPTIONS');
    res.set('Access-Control-Max-Age', '86400');
    res.status(204).end();
    return;
  }
  next();
};

/** Failures (404, 501, 400, 429) are not kept by caches: a link may open (again) at any time. */
const noStoreOnError: ErrorRequestHandler = (err, _req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next(err);
};

/** How long a shared cache may keep an answer (a revocation shows through within this). */
const SHARED_CACHE_SECONDS = 300;

/**
 * GET /api/oembed (base, public): oEmbed 1.0 for share and embed links (packages/server/src/oembed).
 * Rate-limited like the embed detail: per client address and per link.
 */
const routes = [
  defineRoute({
    method: 'options',
    path: '/api/oembed',
    tag: 'Classrooms',
    summary: 'CORS preflight of the oEmbed call',
    ok: noContent('Any origin may read the oEmbed answers.'),
    handler: () => openCors,
    onError: noStoreOnError,
  }),
  defineRoute({
    method: 'get',
    path: '/api/oembed',
    tag: 'Classrooms',
    summary: 'oEmbed 1.0 for a share or embed link (type rich)',
    description:
      'Public, CORS open, cacheable for 5 minutes. A link that is not one of ours, revoked, expired or private answers 404; a format other than json 501, as the oEmbed spec says.',
    query: OEmbedQuery,
    limited: true,
    errors: [404, 501],
    ok: OEmbedResponse,
    before: (deps) => [
      openCors,
      rateLimiter({
        redis: deps.redis,
        prefix: deps.config.REDIS_PREFIX,
        logger: deps.logger,
        name: 'oembed',
        limit: deps.config.EMBED_RATE_LIMIT_MAX,
        windowSeconds: deps.config.EMBED_RATE_LIMIT_WINDOW_SECONDS,
      }),
      tokenLimiter(deps, 'oembed-token', (req) =>
        typeof req.query.url === 'string' ? linkOfUrl(req.query.url)?.token : undefined,
      ),
    ],
    handler: (deps) => async (req, res) => {
      const answer = await oembedFor(deps, inputOf(req, OEmbedQuery));
      res.set('Cache-Control', `public, max-age=${Math.min(SHARED_CACHE_SECONDS, answer.cache_age)}`);
      res.json(answer);
    },
    onError: noStoreOnError,
  }),
];

export const oembedRoutes = (deps: ServerDeps): Router => routerOf(deps, API, routes);
