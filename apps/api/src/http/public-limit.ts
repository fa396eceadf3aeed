import type { Request } from 'express';
import type { Config } from '@helix/server';
import { loadLimit, type LoadLimit } from '@helix/server/views/load-limit';

/**
 * The public limits of a viewer load (GET /api/viewer/model): per client address
 * (EMBED_RATE_LIMIT_MAX) and per credential, the link's token or the ticket (EMBED_TOKEN_RATE_LIMIT_MAX,
 * any addresses: `subscription`, as the load's validated query names it), per EMBED_RATE_LIMIT_WINDOW_SECONDS. No middleware asks Redis for them: the route
 * hands them to the load, whose one counting script checks them with the view and its ceilings
 * (packages/server/src/views/load-limit.ts), so a page load costs ONE Redis round trip. Over either:
 * 429 in the standard error shape. Redis down: the load goes through (the limiter must not lock a
 * classroom out).
 */
export const viewerLoadLimit = (config: Config, req: Request, subscription: string): LoadLimit =>
  loadLimit(config, 'viewer-model', req.ip ?? '', subscription);
