import type { TopTenant, UserStats } from '@helix/shared/schemas/model';
import { dayOf } from '../views/allowance.ts';
import type { ViewDeps } from '../views/record-view.ts';
import type { ViewEntry } from '../views/view-store.ts';

/**
 * View statistics read PostgreSQL (ModelViewDaily) and add the counts still buffered in Redis
 * (`pending`, from pendingViews), so an answer never lags the flush.
 */

const add = <K>(map: Map<K, number>, key: K, n: number) => map.set(key, (map.get(key) ?? 0) + n);

/**
 * Views per model: every tenant's (tenantId null) or one tenant's. Every tenant's is the model's
 * running total (`Model.viewTotal`, kept by database triggers in the same transaction as every
 * ModelViewDaily write), one row per model instead of a sum over every view-day; one tenant's sums
 * the tenant's view-days.
 */
export async function modelViewCounts(
  deps: ViewDeps,
  pending: ViewEntry[],
  modelIds: number[],
  tenantId: number | null,
): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (modelIds.length === 0) return counts;
  if (tenantId === null) {
    const models = await deps.db.model.findMany({
      where: { id: { in: modelIds } },
      select: { id: true, viewTotal: true },
    });
    for (const model of models) add(counts, model.id, model.viewTotal);
  } else {
    const rows = await deps.db.modelViewDaily.groupBy({
      by: ['modelId'],
      where: { modelId: { in: modelIds }, tenantId },
      _sum: { count: true },
    });
    for (const row of rows) add(counts, row.modelId, row._sum.count ?? 0);
  }
  const wanted = new Set(modelIds);
  for (const e of pending) {
    if (wanted.has(e.modelId) && (tenantId === null || e.tenantId === tenantId))
      add(counts, e.modelId, e.count);
  }
  return counts;
}

/**
 * The 5 tenants with the most views of each model (all time), read from ModelTenantView (each
 * model's views per tenant, kept by database triggers in the same transaction as every
 * ModelViewDaily write): each model's top `limit` is an index read, plus the tenants with views still
 * buffered in Redis (they may climb into the top once added), instead of summing every view-day per
 * call (docs/lists-at-scale.md).
 */
export async function topTenantsByModel(
  deps: ViewDeps,
  pending: ViewEntry[],
  modelIds: number[],
  limit = 5,
): Promise<Map<number, TopTenant[]>> {
  const perModel = new Map<number, Map<number, number>>();
  if (modelIds.length === 0) return new Map();
  const wanted = new Set(modelIds);
  const pendingTenants = [...new Set(pending.filter((e) => wanted.has(e.modelId)).map((e) => e.tenantId))];
  const rows = await deps.db.$queryRaw<{ modelId: number; tenantId: number; views: number }[]>`
    SELECT top."modelId", top."tenantId", top.views
    FROM unnest(${modelIds}::int[]) AS m(id)
    CROSS JOIN LATERAL (
      SELECT v."modelId", v."tenantId", v.views FROM "ModelTenantView" v
      WHERE v."modelId" = m.id AND v.views <> 0
      ORDER BY v.views DESC, v."tenantId" LIMIT ${limit}
    ) top
    UNION
    SELECT v."modelId", v."tenantId", v.views FROM "ModelTenantView" v
    WHERE v."modelId" = ANY(${modelIds}::int[]) AND v."tenantId" = ANY(${pendingTenants}::int[])`;
  const bump = (modelId: number, tenantId: number, n: number) => {
    const tenants = perModel.get(modelId) ?? new Map<number, number>();
    add(tenants, tenantId, n);
    perModel.set(modelId, tenants);
  };
  for (const row of rows) bump(row.modelId, row.tenantId, Number(row.views));
  for (const e of pending) if (wanted.has(e.modelId)) bump(e.modelId, e.tenantId, e.count);

  const tenantIds = [...new Set([...perModel.values()].flatMap((m) => [...m.keys()]))];
  const tenants = await deps.db.tenant.findMany({
    where: { id: { in: tenantIds } },
    select: { id: true, name: true },
  });
  const nameOf = new Map(tenants.map((t) => [t.id, t.name]));
  const answer = new Map<number, TopTenant[]>();
  for (const [modelId, counts] of perModel) {
    answer.set(
      modelId,
      [...counts.entries()]
        .filter(([tenantId]) => nameOf.has(tenantId))
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .slice(0, limit)
        .map(([tenantId, views]) => ({
          tenant_id: tenantId,
          tenant_name: nameOf.get(tenantId)!,
          tenant_views: views,
        })),
    );
  }
  return answer;
}

/**
 * Views per model and day (UTC) for the last `days` days, today included; days without views are 0.
 * `tenantId`: one tenant's views only (a customer's statistics), null: every tenant's.
 */
export async function viewsByDayByModel(
  deps: ViewDeps,
  pending: ViewEntry[],
  modelIds: number[],
  days = 30,
  now = new Date(),
  tenantId: number | null = null,
): Promise<Map<number, { day: string; views: number }[]>> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const dayList = Array.from({ length: days }, (_, i) =>
    dayOf(new Date(today - (days - 1 - i) * 86_400_000)),
  );
  const first = dayList[0]!;
  const counts = new Map<string, number>();
  if (modelIds.length > 0) {
    const rows = await deps.db.modelViewDaily.groupBy({
      by: ['modelId', 'day'],
      where: {
        modelId: { in: modelIds },
        day: { gte: new Date(first) },
        ...(tenantId === null ? {} : { tenantId }),
      },
      _sum: { count: true },
    });
    for (const row of rows) add(counts, `${row.modelId}|${dayOf(row.day)}`, row._sum.count ?? 0);
    for (const e of pending) {
      if (e.day >= first && (tenantId === null || e.tenantId === tenantId))
        add(counts, `${e.modelId}|${e.day}`, e.count);
    }
  }
  return new Map(
    modelIds.map((id) => [id, dayList.map((day) => ({ day, views: counts.get(`${id}|${day}`) ?? 0 }))]),
  );
}

/**
 * Per-user statistics: each user's views per model (portal loads, and loads of the share and embed
 * links the user made). `tenantId` null: every user (platform admin), else the tenant's users.
 * Only the models in `models` (the caller's visible catalogue) are listed.
 */
export async function userStats(
  deps: ViewDeps,
  pending: ViewEntry[],
  tenantId: number | null,
  models: Map<number, string>,
): Promise<UserStats[]> {
  const users = await deps.db.user.findMany({
    where: { deletedAt: null, ...(tenantId === null ? {} : { tenantId }) },
    select: { id: true, name: true, email: true },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
  const userIds = users.map((u) => u.id);
  const counts = new Map<string, number>();
  if (userIds.length > 0 && models.size > 0) {
    const rows = await deps.db.modelViewDaily.groupBy({
      by: ['userId', 'modelId'],
      where: { userId: { in: userIds }, modelId: { in: [...models.keys()] } },
      _sum: { count: true },
    });
    for (const row of rows) add(counts, `${row.userId}|${row.modelId}`, row._sum.count ?? 0);

    const embedIds = [
      ...new Set(
        pending.filter((e) => e.viewerKey.startsWith('e:')).map((e) => Number(e.viewerKey.slice(2))),
      ),
    ];
    const creators = embedIds.length
      ? await deps.db.embedToken.findMany({
          where: { id: { in: embedIds } },
          select: { id: true, createdById: true },
        })
      : [];
    const creatorOf = new Map(creators.map((t) => [t.id, t.createdById]));
    for (const e of pending) {
      const id = Number(e.viewerKey.slice(2));
      // An LTI launch's view has no user (it is the course's: views per class).
      const userId = e.viewerKey.startsWith('u:')
        ? id
        : e.viewerKey.startsWith('e:')
          ? creatorOf.get(id)
          : undefined;
      if (userId !== undefined) add(counts, `${userId}|${e.modelId}`, e.count);
    }
  }
  return users.map((user) => ({
    id: user.id,
    name: user.name,
    email: user.email,
    models: [...models.entries()]
      .map(([modelId, modelName]) => ({
        medicalModelId: modelId,
        modelName,
        viewCount: counts.get(`${user.id}|${modelId}`) ?? 0,
      }))
      .filter((m) => m.viewCount > 0)
      .sort((a, b) => b.viewCount - a.viewCount || a.medicalModelId - b.medicalModelId),
  }));
}
