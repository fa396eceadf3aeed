import { flushViews, type FlushDeps } from '@helix/server/views/flush-views';
import type { JobHandler } from '../registry.ts';

/**
 * flush-views: buffered view counts from Redis to PostgreSQL, exactly once (packages/server/src/views/
 * flush-views.ts). Runs every VIEW_FLUSH_INTERVAL_MS; a run that is not the scheduled one also looks
 * for batches left in Redis by a crash (SCAN) and prunes old ViewFlush rows.
 */
export function flushViewsHandler(deps: FlushDeps): JobHandler<'flush-views'> {
  return async (payload) => flushViews(deps, { recover: payload.reason !== 'schedule' });
}
