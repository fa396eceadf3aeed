import { LTI_CLASS_STATS_MAX, type LtiClassStats } from '@helix/shared/schemas/lti';
import type { ServerDeps } from '../deps.ts';
import type { Actor } from '../sessions/session.service.ts';
import { pendingViews } from '../views/record-view.ts';
import { viewDepsOf } from '../views/views-summary.ts';
import { authorizeClassStats } from './lti.policy.ts';

/**
 * GET /stats/classes: the school's classes (LTI courses) with the views their pupils' launches made,
 * every day's, and the models they opened: PostgreSQL plus the counts Redis has not flushed yet, so a
 * lesson's views show at once. Most views first, at most LTI_CLASS_STATS_MAX classes.
 */
export async function classStats(deps: ServerDeps, actor: Actor): Promise<LtiClassStats> {
  const { tenantId } = authorizeClassStats(actor);
  const [contexts, stored, pending] = await Promise.all([
    deps.db.ltiContext.findMany({
      where: { tenantId },
      select: {
        id: true,
        title: true,
        label: true,
        lastLaunchAt: true,
        platform: { select: { name: true } },
      },
    }),
    deps.db.modelViewDaily.groupBy({
      by: ['ltiContextId', 'modelId'],
      where: { tenantId, ltiContextId: { not: null } },
      _sum: { count: true },
    }),
    pendingViews(viewDepsOf(deps)),
  ]);
  // context id -> model id -> views
  const perClass = new Map<number, Map<number, number>>();
  const add = (contextId: number, modelId: number, views: number) => {
    const models = perClass.get(contextId) ?? new Map<number, number>();
    models.set(modelId, (models.get(modelId) ?? 0) + views);
    perClass.set(contextId, models);
  };
  for (const row of stored) add(row.ltiContextId!, row.modelId, row._sum.count ?? 0);
  for (const e of pending) {
    if (e.tenantId === tenantId && e.viewerKey.startsWith('l:'))
      add(Number(e.viewerKey.slice(2)), e.modelId, e.count);
  }
  const rows = contexts.map((c) => {
    const models = perClass.get(c.id) ?? new Map<number, number>();
    return {
      id: c.id,
      title: c.title,
      label: c.label,
      platformName: c.platform.name,
      views: [...models.values()].reduce((sum, n) => sum + n, 0),
      models: [...models.values()].filter((n) => n > 0).length,
      lastLaunchAt: c.lastLaunchAt.toISOString(),
    };
  });
  rows.sort((a, b) => b.views - a.views || a.title.localeCompare(b.title) || a.id - b.id);
  return {
    rows: rows.slice(0, LTI_CLASS_STATS_MAX),
    totalViews: rows.reduce((sum, r) => sum + r.views, 0),
  };
}
