import { LRUCache } from 'lru-cache';

export interface TtlCacheOptions {
  /** How long a value may be reused, in ms, counted from when its load STARTED. 0 turns the cache off. */
  ttlMs: number;
  /** At most this many entries; past it the least recently used goes first. */
  maxEntries: number;
  /** The clock, in ms (tests). */
  now?: () => number;
}

/**
 * A small in-process cache for values that may be a few seconds stale, kept by lru-cache (expiry and
 * the bound on its size); what is added here is the loading. An entry expires `ttlMs` after its load
 * started, so a value served is never older than that: a change committed before a load started is
 * in its value, and a change committed later is seen by every call `ttlMs` after it at the latest.
 * Concurrent misses of one key share one load (a popular key that expires costs one query, not one per
 * waiting request); a failed load is not kept. `delete` and `clear` also drop loads in flight, so a
 * load that started before them never fills the cache afterwards. The size is bounded: the least
 * recently used entries are dropped first.
 */
export class TtlCache<K extends NonNullable<unknown>, V> {
  /** Values are boxed: lru-cache keeps no null or undefined, and a cached null is an answer here. */
  readonly #entries: LRUCache<K, { value: V }>;
  readonly #loading = new Map<K, Promise<V>>();
  readonly #ttlMs: number;
  readonly #now: () => number;

  constructor(options: TtlCacheOptions) {
    if (!(options.ttlMs >= 0) || !(options.maxEntries >= 1)) {
      throw new RangeError('TtlCache needs ttlMs >= 0 and maxEntries >= 1');
    }
    this.#ttlMs = options.ttlMs;
    this.#now = options.now ?? Date.now;
    this.#entries = new LRUCache({
      max: options.maxEntries,
      ttl: options.ttlMs,
      // Read the clock at every look-up (the default caches it for 1 ms).
      ttlResolution: 0,
      perf: { now: this.#now },
    });
  }

  /** Entries held (expired ones included until they are looked up or pushed out). */
  get size(): number {
    return this.#entries.size;
  }

  has(key: K): boolean {
    // get, not lru-cache's has: a look-up drops an expired entry.
    return this.#entries.get(key) !== undefined;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key)?.value;
  }

  /** Stores a value read at `readAt` (ms, default now); it expires ttlMs after that. */
  set(key: K, value: V, readAt = this.#now()): void {
    if (this.#ttlMs === 0 || readAt + this.#ttlMs <= this.#now()) return;
    // lru-cache counts an entry stale once MORE than ttl has passed; here it expires when ttlMs has.
    this.#entries.set(key, { value }, { start: readAt - 1 });
  }

  delete(key: K): void {
    this.#entries.delete(key);
    this.#loading.delete(key);
  }

  clear(): void {
    this.#entries.clear();
    this.#loading.clear();
  }

  /** The cached value, else the result of `load` (shared with concurrent callers, then cached). */
  async getOrLoad(key: K, load: () => Promise<V>): Promise<V> {
    if (this.#ttlMs === 0) return load();
    const entry = this.#entries.get(key);
    if (entry) return entry.value;
    const inFlight = this.#loading.get(key);
    if (inFlight) return inFlight;
    const readAt = this.#now();
    const promise: Promise<V> = Promise.resolve()
      .then(load)
      .then((value) => {
        // Not when delete/clear (or a load started after them) took this load's place meanwhile.
        if (this.#loading.get(key) === promise) this.set(key, value, readAt);
        return value;
      })
      .finally(() => {
        if (this.#loading.get(key) === promise) this.#loading.delete(key);
      });
    this.#loading.set(key, promise);
    return promise;
  }
}
