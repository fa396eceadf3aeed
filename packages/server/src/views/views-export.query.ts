import Papa from 'papaparse';
import type { ServerDeps } from '../deps.ts';
import type { Actor } from '../sessions/session.service.ts';
import { billingPeriod, dayOf } from './allowance.ts';
import { pendingViews } from './record-view.ts';
import { viewDepsOf } from './views-summary.ts';
import { authorizeStats } from '../stats/stats.policy.ts';

export interface ViewsExportRow {
  period_start: string;
  period_end: string;
  /** 'model': a model's views in the period (these rows add up to the billed count); 'link': one share/embed link's. */
  kind: 'model' | 'link';
  model_id: number;
  model_name: string;
  /** Links only: the link's id, who made it, and whether it is still live. */
  link_id: number | '';
  link_created_by: string;
  link_revoked: 'yes' | 'no' | '';
  views: number;
}

const add = (map: Map<string, number>, key: string, n: number) => map.set(key, (map.get(key) ?? 0) + n);

/**
 * The tenant's views in its current billing period, per model and per share/embed link: PostgreSQL's
 * daily rows plus what Redis has not flushed yet, over the same days as the billed count
 * (periodViewCount), so the model rows add up to it. Deleted models and links are still listed.
 */
export async function viewsExportRows(
  deps: ServerDeps,
  actor: Actor,
  now = new Date(),
): Promise<{ periodStart: string; rows: ViewsExportRow[] }> {
  const tenantId = actor.tenant.id;
  const subscription = await deps.db.tenantSubscription.findUnique({ where: { tenantId } });
  const period = billingPeriod(subscription, now);
  const inPeriod = (day: string) => day >= period.firstDay && day < period.endDay;
  const pending = (await pendingViews(viewDepsOf(deps))).filter(
    (e) => e.tenantId === tenantId && inPeriod(e.day),
  );
  const stored = await deps.db.modelViewDaily.groupBy({
    by: ['modelId', 'viewerKey'],
    where: { tenantId, day: { gte: new Date(period.firstDay), lt: new Date(period.endDay) } },
    _sum: { count: true },
  });
  // modelId|viewerKey -> views
  const counts = new Map<string, number>();
  for (const row of stored) add(counts, `${row.modelId}|${row.viewerKey}`, row._sum.count ?? 0);
  for (const e of pending) add(counts, `${e.modelId}|${e.viewerKey}`, e.count);

  const perModel = new Map<number, number>();
  const perLink = new Map<string, { modelId: number; linkId: number; views: number }>();
  for (const [key, views] of counts) {
    const [model, viewerKey] = key.split('|') as [string, string];
    const modelId = Number(model);
    perModel.set(modelId, (perModel.get(modelId) ?? 0) + views);
    if (viewerKey.startsWith('e:')) {
      const link = perLink.get(key) ?? { modelId, linkId: Number(viewerKey.slice(2)), views: 0 };
      link.views += views;
      perLink.set(key, link);
    }
  }
  const [models, links] = await Promise.all([
    deps.db.model.findMany({ where: { id: { in: [...perModel.keys()] } }, select: { id: true, name: true } }),
    deps.db.embedToken.findMany({
      where: { tenantId, id: { in: [...perLink.values()].map((l) => l.linkId) } },
      select: { id: true, revokedAt: true, createdBy: { select: { email: true } } },
    }),
  ]);
  const nameOf = new Map(models.map((m) => [m.id, m.name]));
  const linkOf = new Map(links.map((l) => [l.id, l]));
  const base = { period_start: dayOf(period.start), period_end: dayOf(period.end) };
  const modelName = (id: number) => nameOf.get(id) ?? '(deleted model)';
  const modelRows: ViewsExportRow[] = [...perModel.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([id, views]) => ({
      ...base,
      kind: 'model',
      model_id: id,
      model_name: modelName(id),
      link_id: '',
      link_created_by: '',
      link_revoked: '',
      views,
    }));
  const linkRows: ViewsExportRow[] = [...perLink.values()]
    .sort((a, b) => b.views - a.views || a.linkId - b.linkId)
    .map((l) => {
      const link = linkOf.get(l.linkId);
      return {
        ...base,
        kind: 'link',
        model_id: l.modelId,
        model_name: modelName(l.modelId),
        link_id: l.linkId,
        link_created_by: link?.createdBy.email ?? '(deleted link)',
        link_revoked: link ? (link.revokedAt ? 'yes' : 'no') : '',
        views: l.views,
      };
    });
  return { periodStart: base.period_start, rows: [...modelRows, ...linkRows] };
}

export const VIEWS_EXPORT_COLUMNS: (keyof ViewsExportRow)[] = [
  'period_start',
  'period_end',
  'kind',
  'model_id',
  'model_name',
  'link_id',
  'link_created_by',
  'link_revoked',
  'views',
];

/** GET /views/export: the rows as CSV (papaparse; a name starting with = + - @ is escaped for spreadsheets). */
/** GET /views/export: the statistics page's export (an admin's: stats/stats.policy.ts). */
export async function viewsExportCsv(deps: ServerDeps, actor: Actor, now = new Date()) {
  authorizeStats(actor, 'models');
  const { periodStart, rows } = await viewsExportRows(deps, actor, now);
  const csv = rows.length
    ? Papa.unparse(rows, { columns: VIEWS_EXPORT_COLUMNS, escapeFormulae: true, newline: '\r\n' })
    : VIEWS_EXPORT_COLUMNS.join(',');
  return { filename: `views-${periodStart}.csv`, csv: `${csv}\r\n` };
}
