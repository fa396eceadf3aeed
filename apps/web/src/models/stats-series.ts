import type { Model, Tenant } from './models.api';

export interface DayPoint {
  day: string;
  views: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

const toTime = (day: string): number => Date.parse(`${day}T00:00:00Z`);
const toDay = (time: number): string => new Date(time).toISOString().slice(0, 10);

/** Today as 'YYYY-MM-DD' in UTC, the calendar the API counts days in. */
export const todayUtc = (now = Date.now()): string => toDay(now);

/**
 * A continuous series of `days` days ending on the later of `today` and the newest day in the data:
 * the API only lists days with views, and a chart with gaps would draw misleading slopes.
 */
export function fillDays(byDay: readonly DayPoint[] | undefined, today: string, days = 30): DayPoint[] {
  const counts = new Map<string, number>();
  for (const point of byDay ?? []) {
    if (!ISO_DAY.test(point.day) || Number.isNaN(toTime(point.day))) continue;
    counts.set(point.day, (counts.get(point.day) ?? 0) + Math.max(0, Number(point.views) || 0));
  }
  const newest = [...counts.keys()].sort().at(-1);
  const end = Math.max(toTime(today), newest ? toTime(newest) : -Infinity);
  return Array.from({ length: days }, (_, i) => {
    const day = toDay(end - (days - 1 - i) * DAY_MS);
    return { day, views: counts.get(day) ?? 0 };
  });
}

export const totalViews = (series: readonly DayPoint[]): number =>
  series.reduce((sum, p) => sum + p.views, 0);

/** Top tenants with their names, falling back to the tenants list when the stats carry none. */
export function topTenantRows(model: Pick<Model, 'topTenants'>, tenants: readonly Tenant[]) {
  const names = new Map(tenants.map((t) => [t.id, t.name]));
  return (model.topTenants ?? []).map((t) => ({
    id: t.tenant_id,
    name: t.tenant_name || names.get(t.tenant_id) || `Tenant ${t.tenant_id}`,
    views: t.tenant_views,
  }));
}
