import { describe, expect, it } from 'vitest';
import { VIEWER_TOKEN_PATTERN } from '@helix/shared/schemas/model';
import { KEPT_TOKEN_SHAPE, keepViewerToken, keptViewerToken } from './kept-viewer-token.ts';

const memoryStorage = () => {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    map,
  };
};

const link = (n: number) => `${String(n).padStart(4, '0')}${'L'.repeat(39)}`;
const token = (n: number) => `vw1.${'p'.repeat(60)}${n}.${'s'.repeat(43)}`;

describe('the kept viewer tokens', () => {
  it('keeps one token per link and gives it back for that link only', () => {
    const storage = memoryStorage();
    expect(keptViewerToken(link(1), storage)).toBeUndefined();
    keepViewerToken(link(1), token(1), storage);
    keepViewerToken(link(2), token(2), storage);
    keepViewerToken(link(1), token(3), storage);
    expect(keptViewerToken(link(1), storage)).toBe(token(3));
    expect(keptViewerToken(link(2), storage)).toBe(token(2));
    expect(keptViewerToken(link(3), storage)).toBeUndefined();
  });

  it('remembers the 20 most recent links', () => {
    const storage = memoryStorage();
    for (let i = 0; i < 25; i += 1) keepViewerToken(link(i), token(i), storage);
    expect(keptViewerToken(link(4), storage)).toBeUndefined();
    expect(keptViewerToken(link(5), storage)).toBe(token(5));
    expect(keptViewerToken(link(24), storage)).toBe(token(24));
  });

  it('treats a damaged store or a refusing storage as no token, never a throw', () => {
    const storage = memoryStorage();
    storage.setItem('__viewer__tokens', '{not json');
    expect(keptViewerToken(link(1), storage)).toBeUndefined();
    storage.setItem('__viewer__tokens', JSON.stringify([[link(1).slice(0, 16), 'bad value!']]));
    expect(keptViewerToken(link(1), storage)).toBeUndefined();
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(() => keepViewerToken(link(1), token(1), refusing)).not.toThrow();
    expect(keptViewerToken(link(1), refusing)).toBeUndefined();
    expect(keptViewerToken(link(1), null)).toBeUndefined();
  });

  it('checks the shape the API accepts', () => {
    expect(KEPT_TOKEN_SHAPE.source).toBe(VIEWER_TOKEN_PATTERN.source);
  });
});
