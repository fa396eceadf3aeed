import { describe, expect, it } from 'vitest';
import { VIEWER_ID_PATTERN } from '@helix/shared/schemas/model';
import { viewerId, withViewerId } from './viewer-id';

const memoryStorage = () => {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    map,
  };
};

describe('viewerId', () => {
  it('makes a random id once and keeps it in storage', () => {
    const storage = memoryStorage();
    const id = viewerId(storage);
    expect(id).toMatch(VIEWER_ID_PATTERN);
    expect(viewerId(storage)).toBe(id);
    expect(viewerId(memoryStorage())).not.toBe(id);
  });

  it('replaces a stored value that is not an id', () => {
    const storage = memoryStorage();
    storage.setItem('__viewer__id', 'bad value!');
    const id = viewerId(storage);
    expect(id).toMatch(VIEWER_ID_PATTERN);
    expect(storage.map.get('__viewer__id')).toBe(id);
  });

  it('works without storage (one id per page load)', () => {
    const throwing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    const id = viewerId(throwing);
    expect(id).toMatch(VIEWER_ID_PATTERN);
    expect(viewerId(null)).toBe(id);
  });
});

describe('withViewerId', () => {
  it('adds the id to the frame address, keeping its parameters', () => {
    expect(
      withViewerId(
        'http://viewer.test/?model=cell&subscription=t&currentmode=embedding',
        'AbCdEfGhIjKlMnOpQrStUv',
      ),
    ).toBe(
      'http://viewer.test/?model=cell&subscription=t&currentmode=embedding&viewer=AbCdEfGhIjKlMnOpQrStUv',
    );
  });
});
