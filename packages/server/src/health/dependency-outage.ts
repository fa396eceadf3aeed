import type { Logger } from 'pino';

/** A short, log-safe summary of what failed (no stack: the outage line is for the operator). */
const summary = (error: unknown): string | undefined =>
  error instanceof Error ? error.message : error === undefined ? undefined : String(error);

/**
 * Whether a dependency (Redis, PostgreSQL) is down, as this process sees it, and the two log lines an
 * operator wants: one when the outage starts (with the first error) and one when it ends (with its
 * duration). Every failure in between only confirms the outage, so a request per millisecond during a
 * 20 s outage writes two lines, not twenty thousand. Request paths read `down` to skip what would fail
 * anyway (the rate limiter fails open, a view goes straight to PostgreSQL).
 */
export class DependencyOutage {
  readonly name: string;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #confirm?: (error: unknown) => Promise<boolean>;
  #confirming = false;
  #since: number | null = null;
  #failures = 0;
  readonly #recoveredListeners = new Set<(outageMs: number) => void>();
  readonly #failedListeners = new Set<() => void>();

  /**
   * `confirm`, when given, is asked before an outage starts (e.g. a PING within a generous time): a
   * command that timed out on a busy machine is not an outage unless the dependency really does not
   * answer. It may resolve true at once for a failure that is certain (the connection is lost).
   */
  constructor(
    name: string,
    logger: Logger,
    options: { now?: () => number; confirm?: (error: unknown) => Promise<boolean> } = {},
  ) {
    this.name = name;
    this.#logger = logger;
    this.#now = options.now ?? Date.now;
    this.#confirm = options.confirm;
  }

  get down(): boolean {
    return this.#since !== null;
  }

  /** When the current outage started (ms since the epoch), or null. */
  get since(): number | null {
    return this.#since;
  }

  /** A failure: the first one starts the outage (logged), later ones are only counted. */
  failed(error?: unknown): void {
    if (this.#since !== null) {
      this.#failures += 1;
      for (const listener of this.#failedListeners) listener();
      return;
    }
    if (!this.#confirm) {
      this.#start(error);
      return;
    }
    if (this.#confirming) return;
    this.#confirming = true;
    this.#confirm(error)
      .catch(() => true)
      .then((confirmed) => {
        this.#confirming = false;
        if (confirmed) this.#start(error);
      });
  }

  #start(error: unknown): void {
    if (this.#since === null) {
      this.#since = this.#now();
      this.#failures = 0;
      this.#logger.error(
        { dependency: this.name, error: summary(error) },
        `${this.name} unavailable: outage started`,
      );
    }
    this.#failures += 1;
    for (const listener of this.#failedListeners) listener();
  }

  /** A success: ends the outage if there was one (logged with its duration and the failures seen). */
  recovered(): void {
    if (this.#since === null) return;
    const outageMs = this.#now() - this.#since;
    const failures = this.#failures;
    this.#since = null;
    this.#failures = 0;
    this.#logger.warn(
      { dependency: this.name, outageMs, failures },
      `${this.name} available again after ${(outageMs / 1000).toFixed(1)} s`,
    );
    for (const listener of this.#recoveredListeners) listener(outageMs);
  }

  /** Called on every failure reported (e.g. to start probing a dependency that hangs). */
  onFailed(listener: () => void): () => void {
    this.#failedListeners.add(listener);
    return () => this.#failedListeners.delete(listener);
  }

  /** Called after each outage ends (e.g. to correct what was done differently meanwhile). */
  onRecovered(listener: (outageMs: number) => void): () => void {
    this.#recoveredListeners.add(listener);
    return () => this.#recoveredListeners.delete(listener);
  }
}

const outages = new WeakMap<object, DependencyOutage>();

/**
 * The one outage state of a client object (a Redis client, a PrismaClient): everything that uses the
 * client shares it, so the outage is logged once however many places see it fail. The first caller's
 * logger is kept.
 */
export function outageOf(
  client: object,
  name: string,
  logger: Logger,
  confirm?: (error: unknown) => Promise<boolean>,
): DependencyOutage {
  let outage = outages.get(client);
  if (!outage) {
    outage = new DependencyOutage(name, logger, { confirm });
    outages.set(client, outage);
  }
  return outage;
}

/** The client's outage state if one was made (without a logger at hand). */
export const knownOutageOf = (client: object): DependencyOutage | undefined => outages.get(client);

/** Whether the promise resolves within `ms`. */
export async function answersWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
