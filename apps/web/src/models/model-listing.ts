import { MSG } from '@helix/shared';
import type { ModelSort } from '@helix/shared/schemas/model';
import type { Model, ModelViews } from './models.api';
import { formatCount } from '../ui/count-format';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);

export const SORT_OPTIONS: { value: ModelSort; label: string }[] = [
  { value: 'name-Asc', label: 'Name (A to Z)' },
  { value: 'name-Desc', label: 'Name (Z to A)' },
  { value: 'createdAt-Asc', label: 'Oldest first' },
  { value: 'createdAt-Desc', label: 'Newest first' },
];

/** The specification's search: a case-insensitive substring of the name. */
export const matchesSearch = (model: Pick<Model, 'name'>, search: string): boolean =>
  model.name.toLocaleLowerCase().includes(search.trim().toLocaleLowerCase());

const time = (value: string): number => {
  const t = Date.parse(value);
  return Number.isNaN(t) ? 0 : t;
};

const byName = (a: Model, b: Model) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true }) || a.id - b.id;
const byCreated = (a: Model, b: Model) => time(a.createdAt) - time(b.createdAt) || a.id - b.id;

/**
 * What the grid shows from a list it already holds (the cache, or after a save): the same search and
 * order the server applies, so the cards do not jump when the server's answer arrives.
 */
export function filterAndSort(models: readonly Model[], search: string, sort: ModelSort): Model[] {
  const compare = sort.startsWith('name') ? byName : byCreated;
  const direction = sort.endsWith('Desc') ? -1 : 1;
  return models.filter((m) => matchesSearch(m, search)).sort((a, b) => direction * compare(a, b));
}

/** A saved model replaces its old card, or joins the list; the list is then re-sorted (spec 4). */
export function upsertModel(
  models: readonly Model[],
  saved: Model,
  search: string,
  sort: ModelSort,
): Model[] {
  const rest = models.filter((m) => m.id !== saved.id);
  return filterAndSort([...rest, saved], search, sort);
}

/**
 * 'Views: 120 / 10,000', or 'Unlimited Views' when the plan has no limit (viewLimit 0). Purchased
 * blocks of 1,000 views extend the period's limit, so they count in the figure after the slash.
 */
export function viewsCounterText(
  views: Pick<ModelViews, 'viewCount' | 'viewLimit'> & Partial<Pick<ModelViews, 'additionalViews'>>,
): string {
  if (!views.viewLimit) return MSG.unlimitedViews;
  return `Views: ${formatCount(views.viewCount)} / ${formatCount(views.viewLimit + (views.additionalViews ?? 0))}`;
}

/**
 * The period under the counter: its end and, when loads stop past the allowance, the grace band
 * ('Grace 100 · until 3 Dec 2026'), so an owner sees the limit coming before a lesson meets it.
 */
export function viewsPeriodText(
  views: Pick<ModelViews, 'periodEnd'> & Partial<Pick<ModelViews, 'graceViews' | 'refuseAt'>>,
): string {
  // dayjs, not toLocaleDateString: the browser's first date formatter loads its locale data, tens of
  // milliseconds of a tablet's first screen.
  const end = dayjs.utc(views.periodEnd).format('D MMM YYYY');
  return views.refuseAt ? `Grace ${formatCount(views.graceViews ?? 0)} · until ${end}` : `Until ${end}`;
}

/** Cents to dollars with two decimals: 500 → '$5.00'. */
export const formatCents = (cents: number): string => `$${((Number(cents) || 0) / 100).toFixed(2)}`;

/** Additional views used: the views over the limit, 0 below it or when unlimited (spec 9). */
export function additionalViewsUsed(views: Pick<ModelViews, 'viewCount' | 'viewLimit'>): number {
  const { viewCount, viewLimit } = views;
  return viewLimit > 0 && viewCount >= viewLimit ? viewCount - viewLimit : 0;
}

export interface AdditionalViewsInfo {
  used: string;
  price: string;
}

/** The additional-view lines of the title bar; none on an unlimited plan. */
export function additionalViewsInfo(views: ModelViews): AdditionalViewsInfo | null {
  if (!views.viewLimit) return null;
  const used = views.additionalViewsUsed ?? additionalViewsUsed(views);
  return {
    used: `Additional views used: ${formatCount(used)}`,
    price: `Additional views: ${formatCents(views.additionalViewsPrice)} per thousand views`,
  };
}
