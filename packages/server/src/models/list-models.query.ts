import type { TopTenant } from '@helix/shared/schemas/model';
import type { ModelListQuery, ModelListResponse, ModelSort } from '@helix/shared/schemas/model';
import type { z } from 'zod';
import type { ServerDeps } from '../deps.ts';
import type { Prisma } from '../db.ts';
import { presentModel, type ModelRecord } from '../presenters/model.presenter.ts';
import type { Actor } from '../sessions/session.service.ts';
import { pendingViews } from '../views/record-view.ts';
import { viewDepsOf, viewsSummary } from '../views/views-summary.ts';
import { isPlatformAdmin, visibleTo } from './model.policy.ts';
import { modelViewCounts, topTenantsByModel, userStats, viewsByDayByModel } from './model-stats.query.ts';
import { authorizeStats, canViewUserStats } from '../stats/stats.policy.ts';

type ListInput = z.output<typeof ModelListQuery>;

/**
 * Prisma's `contains` becomes ILIKE '%…%' without escaping, so `%` and `_` in a search would be
 * wildcards: escape them (and the escape character, backslash, PostgreSQL's default) to match literally.
 */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

const byName = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Name sorts ignore case (the grid shows names as people read them); ties keep the id order. */
function sortModels<T extends { id: number; name: string; createdAt: Date }>(
  models: T[],
  sort: ModelSort,
): T[] {
  const [field, direction] = sort.split('-') as ['name' | 'createdAt', 'Asc' | 'Desc'];
  const sign = direction === 'Asc' ? 1 : -1;
  return [...models].sort((a, b) => {
    const order =
      field === 'name' ? byName.compare(a.name, b.name) : a.createdAt.getTime() - b.createdAt.getTime();
    return sign * order || sign * (a.id - b.id);
  });
}

async function ownTopTenant(
  deps: ServerDeps,
  tenantId: number,
  ids: number[],
  counts: Map<number, number>,
): Promise<Map<number, TopTenant[]>> {
  const tenant = await deps.db.tenant.findUnique({ where: { id: tenantId }, select: { name: true } });
  const answer = new Map<number, TopTenant[]>();
  for (const id of ids) {
    const views = counts.get(id) ?? 0;
    answer.set(
      id,
      views > 0 && tenant ? [{ tenant_id: tenantId, tenant_name: tenant.name, tenant_views: views }] : [],
    );
  }
  return answer;
}

/**
 * GET /model/all: the models the caller may see (search, sort) with view counts (a platform admin: all
 * tenants', with top tenants and views per day only when asked, `stats=true`; others: their
 * tenant's), the period's view summary
 * (non-admins) and, only when asked (`users=true`) and allowed (canViewUserStats), per-user statistics.
 * `stats=true` is refused (403) to whoever may not read the statistics.
 */
export async function listModels(
  deps: ServerDeps,
  actor: Actor,
  input: ListInput,
): Promise<ModelListResponse> {
  // Statistics are an admin's (stats/stats.policy.ts): asking for them without being one is refused.
  if (input.stats === true) authorizeStats(actor, 'models');
  const admin = isPlatformAdmin(actor);
  const where: Prisma.ModelWhereInput = {
    ...visibleTo(actor),
    ...(input.search ? { name: { contains: likeLiteral(input.search), mode: 'insensitive' } } : {}),
  };
  const found: ModelRecord[] = await deps.db.model.findMany({
    where,
    include: { restrictedTenants: { select: { tenantId: true } } },
  });
  const models = sortModels(found, input.sort);
  const ids = models.map((m) => m.id);
  const viewDeps = viewDepsOf(deps);
  const pending = await pendingViews(viewDeps);

  const [counts, adminTop, byDay] = await Promise.all([
    modelViewCounts(viewDeps, pending, ids, admin ? null : actor.tenant.id),
    admin && input.stats === true ? topTenantsByModel(viewDeps, pending, ids) : null,
    input.stats === true
      ? viewsByDayByModel(viewDeps, pending, ids, 30, new Date(), admin ? null : actor.tenant.id)
      : null,
  ]);
  // A customer's statistics are its own: its Top Tenants is itself with the views it counted (the
  // same figure as Website Views, and as the platform's row for this tenant), never other tenants'.
  const top =
    adminTop ?? (input.stats === true ? await ownTopTenant(deps, actor.tenant.id, ids, counts) : null);

  let users: ModelListResponse['users'] = [];
  if (input.users === true && canViewUserStats(actor)) {
    // Statistics cover the whole visible catalogue, whatever the search.
    const catalogue = input.search
      ? await deps.db.model.findMany({ where: visibleTo(actor), select: { id: true, name: true } })
      : models;
    users = await userStats(
      viewDeps,
      pending,
      admin ? null : actor.tenant.id,
      new Map(catalogue.map((m) => [m.id, m.name])),
    );
  }

  return {
    models: models.map((model) =>
      presentModel(model, actor, {
        admin,
        stats: {
          viewCount: counts.get(model.id) ?? 0,
          ...(top ? { topTenants: top.get(model.id) ?? [] } : {}),
          ...(byDay ? { viewsByDay: byDay.get(model.id) ?? [] } : {}),
        },
      }),
    ),
    views: admin ? null : await viewsSummary(deps, actor),
    users,
  };
}
