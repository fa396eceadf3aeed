import { describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import {
  additionalViewsInfo,
  additionalViewsUsed,
  filterAndSort,
  formatCents,
  matchesSearch,
  upsertModel,
  viewsCounterText,
  viewsPeriodText,
} from './model-listing';
import { toListing, type Model, type ModelViews } from './models.api';

const model = (id: number, name: string, createdAt: string): Model => ({
  id,
  name,
  urlModelName: name.toLowerCase().replace(/\s+/g, '-'),
  url: `/api/files/models/${id}?v=1`,
  thumbnail: null,
  backgroundColor: null,
  viewCount: 0,
  createdAt,
  updatedAt: createdAt,
  isPublic: true,
  restrictedTenants: [],
  version: 1,
  abilities: { view: true, edit: false, embed: true, delete: false, lesson: false },
});

const heart = model(1, 'Heart', '2024-03-01T00:00:00Z');
const cell = model(2, 'animal Cell', '2024-01-01T00:00:00Z');
const brain = model(3, 'Brain', '2024-02-01T00:00:00Z');
const all = [heart, cell, brain];
const names = (list: Model[]) => list.map((m) => m.name);

describe('search', () => {
  it('is a case-insensitive substring of the name', () => {
    expect(matchesSearch(cell, 'CELL')).toBe(true);
    expect(matchesSearch(cell, 'mal c')).toBe(true);
    expect(matchesSearch(cell, 'heart')).toBe(false);
    expect(matchesSearch(cell, '  ')).toBe(true);
  });
});

describe('filterAndSort', () => {
  it('sorts by creation date ascending by default value', () => {
    expect(names(filterAndSort(all, '', 'createdAt-Asc'))).toEqual(['animal Cell', 'Brain', 'Heart']);
    expect(names(filterAndSort(all, '', 'createdAt-Desc'))).toEqual(['Heart', 'Brain', 'animal Cell']);
  });
  it('sorts by name without regard to case', () => {
    expect(names(filterAndSort(all, '', 'name-Asc'))).toEqual(['animal Cell', 'Brain', 'Heart']);
    expect(names(filterAndSort(all, '', 'name-Desc'))).toEqual(['Heart', 'Brain', 'animal Cell']);
  });
  it('filters before sorting and leaves the input alone', () => {
    expect(names(filterAndSort(all, 'r', 'name-Asc'))).toEqual(['Brain', 'Heart']);
    expect(names(all)).toEqual(['Heart', 'animal Cell', 'Brain']);
  });
});

describe('upsertModel (the list is re-sorted after a save)', () => {
  it('adds a new model in its sorted place', () => {
    const added = model(4, 'Aorta', '2025-01-01T00:00:00Z');
    expect(names(upsertModel(all, added, '', 'name-Asc'))).toEqual([
      'animal Cell',
      'Aorta',
      'Brain',
      'Heart',
    ]);
  });
  it('replaces an edited model and moves it', () => {
    const renamed = { ...heart, name: 'Atrium' };
    expect(names(upsertModel(all, renamed, '', 'name-Asc'))).toEqual(['animal Cell', 'Atrium', 'Brain']);
  });
  it('drops a saved model that no longer matches the search', () => {
    expect(names(upsertModel([heart], { ...heart, name: 'Lung' }, 'heart', 'name-Asc'))).toEqual([]);
  });
});

describe('views counter', () => {
  const views = (viewCount: number, viewLimit: number, extra: Partial<ModelViews> = {}): ModelViews => ({
    viewCount,
    viewLimit,
    additionalViews: 0,
    additionalViewsUsed: additionalViewsUsed({ viewCount, viewLimit }),
    additionalViewsPrice: 500,
    additionalViewsValidation: false,
    graceViews: 0,
    refuseAt: null,
    periodStart: '2025-01-01',
    periodEnd: '2025-02-01',
    ...extra,
  });

  it('reads "Views: used / limit" with thousands separators', () => {
    expect(viewsCounterText(views(120, 10_000))).toBe('Views: 120 / 10,000');
  });
  it('extends the limit by the purchased views', () => {
    expect(viewsCounterText(views(120, 10_000, { additionalViews: 2000 }))).toBe('Views: 120 / 12,000');
  });
  it('reads Unlimited Views when the limit is 0', () => {
    expect(viewsCounterText(views(5000, 0))).toBe('Unlimited Views');
    expect(viewsCounterText(views(5000, 0))).toBe(MSG.unlimitedViews);
    expect(additionalViewsInfo(views(5000, 0))).toBeNull();
  });
  it('counts additional views only at or above the limit', () => {
    expect(additionalViewsUsed({ viewCount: 999, viewLimit: 1000 })).toBe(0);
    expect(additionalViewsUsed({ viewCount: 1000, viewLimit: 1000 })).toBe(0);
    expect(additionalViewsUsed({ viewCount: 1250, viewLimit: 1000 })).toBe(250);
    expect(additionalViewsUsed({ viewCount: 1250, viewLimit: 0 })).toBe(0);
  });
  it('shows the price in dollars with two decimals per thousand views', () => {
    expect(formatCents(500)).toBe('$5.00');
    expect(formatCents(1999)).toBe('$19.99');
    expect(formatCents(0)).toBe('$0.00');
    expect(additionalViewsInfo(views(11_200, 10_000))).toEqual({
      used: 'Additional views used: 1,200',
      price: 'Additional views: $5.00 per thousand views',
    });
  });
});

describe('toListing', () => {
  it('tolerates an admin answer without views and odd shapes', () => {
    expect(toListing({ models: [heart], views: null, users: [] })).toEqual({
      models: [heart],
      views: null,
      users: [],
    });
    expect(toListing(undefined)).toEqual({ models: [], views: null, users: [] });
    expect(toListing({ models: 'x', users: {} })).toEqual({ models: [], views: null, users: [] });
  });
});

describe('viewsPeriodText', () => {
  it("writes the period's end as a UTC day, with the grace band once loads pass the allowance", () => {
    expect(viewsPeriodText({ periodEnd: '2026-12-03T23:30:00.000Z' })).toBe('Until 3 Dec 2026');
    expect(viewsPeriodText({ periodEnd: '2027-01-07T00:00:00.000Z' })).toBe('Until 7 Jan 2027');
    expect(
      viewsPeriodText({ periodEnd: '2026-12-03T00:00:00.000Z', refuseAt: 11_000, graceViews: 1_000 }),
    ).toBe('Grace 1,000 · until 3 Dec 2026');
  });
});
