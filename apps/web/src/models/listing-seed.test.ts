import { DEFAULT_MODEL_SORT } from '@helix/shared/schemas/model';
import { describe, expect, it } from 'vitest';
import { peekSeededListing, seedFirstListing, takeSeededListing } from './listing-seed';

const LISTING = { models: [], views: null, users: [] };
const FIRST = { search: '', sort: DEFAULT_MODEL_SORT };

describe('the seeded first listing', () => {
  it("answers the grid's first query only, and is taken once", () => {
    seedFirstListing(LISTING);
    expect(peekSeededListing({ search: 'cell', sort: DEFAULT_MODEL_SORT })).toBeNull();
    expect(peekSeededListing({ search: '', sort: 'name-Asc' })).toBeNull();
    expect(peekSeededListing(FIRST)).toBe(LISTING);
    expect(peekSeededListing(FIRST)).toBe(LISTING);
    expect(takeSeededListing(FIRST)).toBe(LISTING);
    expect(takeSeededListing(FIRST)).toBeNull();
  });

  it('is forgotten when released (a server render seeds for itself only)', () => {
    const release = seedFirstListing(LISTING);
    release();
    expect(peekSeededListing(FIRST)).toBeNull();
  });
});
