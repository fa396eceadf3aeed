import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.ts';

function clock(start = 1_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

/** A load the test resolves or rejects by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('TtlCache', () => {
  it('keeps a value for ttlMs, then forgets it', () => {
    const c = clock();
    const cache = new TtlCache<string, number | null>({ ttlMs: 100, maxEntries: 10, now: c.now });
    cache.set('a', 1);
    cache.set('n', null);
    expect(cache.get('a')).toBe(1);
    expect(cache.has('n')).toBe(true);
    c.advance(99);
    expect(cache.get('a')).toBe(1);
    c.advance(1);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.has('n')).toBe(false);
    expect(cache.size).toBe(0);
  });

  it('counts the lifetime from when the value was read, and drops values already too old', () => {
    const c = clock();
    const cache = new TtlCache<string, number>({ ttlMs: 100, maxEntries: 10, now: c.now });
    cache.set('a', 1, c.now() - 60);
    c.advance(39);
    expect(cache.get('a')).toBe(1);
    c.advance(1);
    expect(cache.get('a')).toBeUndefined();
    cache.set('b', 2, c.now() - 100);
    expect(cache.has('b')).toBe(false);
  });

  it('holds at most maxEntries, dropping the least recently used first', () => {
    const cache = new TtlCache<number, number>({ ttlMs: 1_000, maxEntries: 3 });
    for (let i = 1; i <= 5; i += 1) cache.set(i, i * 10);
    expect(cache.size).toBe(3);
    expect([1, 2, 3, 4, 5].map((k) => cache.get(k))).toEqual([undefined, undefined, 30, 40, 50]);
    cache.set(3, 31); // re-set: now the newest
    cache.set(6, 60);
    expect([3, 4, 5, 6].map((k) => cache.get(k))).toEqual([31, undefined, 50, 60]);
  });

  it('getOrLoad loads once per lifetime and shares a load between concurrent callers', async () => {
    const c = clock();
    const cache = new TtlCache<string, string>({ ttlMs: 100, maxEntries: 10, now: c.now });
    let loads = 0;
    const load = async () => {
      loads += 1;
      return `v${loads}`;
    };
    const first = await Promise.all(Array.from({ length: 20 }, () => cache.getOrLoad('k', load)));
    expect(new Set(first)).toEqual(new Set(['v1']));
    expect(loads).toBe(1);
    c.advance(99);
    expect(await cache.getOrLoad('k', load)).toBe('v1');
    c.advance(1);
    expect(await cache.getOrLoad('k', load)).toBe('v2');
    expect(loads).toBe(2);
  });

  it('expires a loaded value ttlMs after its load started, however long the load took', async () => {
    const c = clock();
    const cache = new TtlCache<string, string>({ ttlMs: 100, maxEntries: 10, now: c.now });
    const slow = deferred<string>();
    const pending = cache.getOrLoad('k', () => slow.promise);
    c.advance(70);
    slow.resolve('old');
    expect(await pending).toBe('old');
    c.advance(29);
    expect(cache.get('k')).toBe('old');
    c.advance(1);
    expect(cache.get('k')).toBeUndefined();

    const slower = deferred<string>();
    const late = cache.getOrLoad('k', () => slower.promise);
    c.advance(150);
    slower.resolve('too old');
    expect(await late).toBe('too old');
    expect(cache.has('k')).toBe(false);
  });

  it('does not keep failed loads: every waiter gets the error, the next call loads again', async () => {
    const cache = new TtlCache<string, string>({ ttlMs: 1_000, maxEntries: 10 });
    const failing = deferred<string>();
    const waiters = [1, 2, 3].map(() => cache.getOrLoad('k', () => failing.promise));
    failing.reject(new Error('database down'));
    for (const w of waiters) await expect(w).rejects.toThrow('database down');
    expect(cache.has('k')).toBe(false);
    expect(await cache.getOrLoad('k', async () => 'ok')).toBe('ok');
    await expect(
      new TtlCache<string, string>({ ttlMs: 1_000, maxEntries: 10 }).getOrLoad('x', () => {
        throw new Error('sync throw');
      }),
    ).rejects.toThrow('sync throw');
  });

  it('delete and clear also discard loads in flight, so an older read never fills the cache', async () => {
    const cache = new TtlCache<string, string>({ ttlMs: 1_000, maxEntries: 10 });
    const before = deferred<string>();
    const first = cache.getOrLoad('k', () => before.promise);
    cache.delete('k');
    const fresh = cache.getOrLoad('k', async () => 'after delete');
    before.resolve('before delete');
    expect(await first).toBe('before delete');
    expect(await fresh).toBe('after delete');
    expect(cache.get('k')).toBe('after delete');

    const inFlight = deferred<string>();
    const pending = cache.getOrLoad('j', () => inFlight.promise);
    cache.clear();
    inFlight.resolve('stale');
    expect(await pending).toBe('stale');
    expect(cache.has('j')).toBe(false);
    expect(cache.has('k')).toBe(false);
  });

  it('with ttlMs 0 it is off: every call loads and nothing is kept', async () => {
    const cache = new TtlCache<string, number>({ ttlMs: 0, maxEntries: 10 });
    let loads = 0;
    const load = async () => ++loads;
    expect(await Promise.all([cache.getOrLoad('k', load), cache.getOrLoad('k', load)])).toEqual([1, 2]);
    cache.set('k', 5);
    expect(cache.has('k')).toBe(false);
    expect(() => new TtlCache({ ttlMs: -1, maxEntries: 1 })).toThrow(RangeError);
    expect(() => new TtlCache({ ttlMs: 1, maxEntries: 0 })).toThrow(RangeError);
  });
});
