import { describeExit, ManagedChild, type ChildExit, type ChildSpec } from './services/process.ts';

export interface SupervisorOptions {
  /** This many crashes of one process within `windowMs` stop supervising (default 5). */
  maxCrashes?: number;
  /** Default 60 s. */
  windowMs?: number;
  /** The first restart waits this long, doubling with each recent crash (default 1 s). */
  baseDelayMs?: number;
  /** The longest wait before a restart (default 15 s). */
  maxDelayMs?: number;
  /** Where the restart lines go (default: console.error with the [stack] prefix). */
  log?: (line: string) => void;
  /** Each crash once running (before the restart or the give-up). */
  onCrash?: (exit: ChildExit) => void;
  /** An exit before running() (still starting): not restarted, only reported here. */
  onStartupExit?: (exit: ChildExit, child: ManagedChild) => void;
}

/**
 * Keeps the portal's processes running, as a Procfile's process manager does in production: a process
 * that exits on its own once the portal is up (a crash, a kill, an out-of-memory) is started again after
 * a backoff (1 s, 2 s, 4 s... up to 15 s), with a log line naming what happened; the others keep
 * serving meanwhile. Only a process that crashes `maxCrashes` times within `windowMs` (a crash loop:
 * restarting will not help) makes `gaveUp` resolve, and the caller stops everything.
 */
export class Supervisor {
  readonly gaveUp: Promise<ChildExit>;
  readonly #options: Required<Omit<SupervisorOptions, 'onStartupExit' | 'onCrash'>> &
    Pick<SupervisorOptions, 'onStartupExit' | 'onCrash'>;
  readonly #current = new Map<string, ManagedChild>();
  readonly #specs = new Map<string, ChildSpec>();
  readonly #crashes = new Map<string, number[]>();
  readonly #timers = new Set<NodeJS.Timeout>();
  #giveUp: (exit: ChildExit) => void = () => {};
  #running = false;
  #stopping = false;
  #restarts = 0;

  constructor(options: SupervisorOptions = {}) {
    this.#options = {
      maxCrashes: options.maxCrashes ?? 5,
      windowMs: options.windowMs ?? 60_000,
      baseDelayMs: options.baseDelayMs ?? 1000,
      maxDelayMs: options.maxDelayMs ?? 15_000,
      log: options.log ?? ((line) => console.error(`[stack] ${line}`)),
      onStartupExit: options.onStartupExit,
      onCrash: options.onCrash,
    };
    this.gaveUp = new Promise((resolve) => (this.#giveUp = resolve));
  }

  /** Starts a process under supervision. */
  start(spec: ChildSpec): ManagedChild {
    const child = new ManagedChild(spec);
    this.#current.set(spec.name, child);
    this.#specs.set(spec.name, spec);
    void child.exited.then((exit) => this.#exited(spec, child, exit));
    return child;
  }

  /** How the process under this name is started from its next restart on (e.g. the port it chose at its first start). */
  respec(name: string, spec: ChildSpec): void {
    if (!this.#specs.has(name) || spec.name !== name) throw new Error(`no process named ${name}`);
    this.#specs.set(name, spec);
  }

  /** From now on an exit is a crash to restart (before, it is a failed start). */
  running(): void {
    this.#running = true;
  }

  /** The process running under this name now (a restart replaces it). */
  current(name: string): ManagedChild | undefined {
    return this.#current.get(name);
  }

  /** How many restarts were made so far. */
  get restarts(): number {
    return this.#restarts;
  }

  /**
   * A planned restart of one process (a rolling restart, one process at a time): SIGTERM, its graceful
   * shutdown (an API drains, a worker finishes its running jobs) up to `timeoutMs`, then SIGKILL; then the
   * same process is started again under the same name. Not counted as a crash. Resolves with the new
   * process (the caller waits for it to be ready) and how the old one exited.
   */
  async restart(name: string, timeoutMs = 30_000): Promise<{ child: ManagedChild; exit: ChildExit }> {
    const spec = this.#specs.get(name);
    const old = this.#current.get(name);
    if (!spec || !old) throw new Error(`no process named ${name}`);
    if (this.#stopping) throw new Error(`cannot restart ${name}: stopping`);
    const exit = await old.stop(timeoutMs);
    if (this.#stopping) throw new Error(`cannot restart ${name}: stopping`);
    this.#restarts += 1;
    return { child: this.start(spec), exit };
  }

  /** Stops every process (no more restarts). */
  async stop(timeoutMs = 5000): Promise<void> {
    this.#stopping = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    await Promise.all([...this.#current.values()].map((child) => child.stop(timeoutMs)));
  }

  #exited(spec: ChildSpec, child: ManagedChild, exit: ChildExit): void {
    if (child.stopping || this.#stopping || this.#current.get(spec.name) !== child) return;
    if (!this.#running) {
      this.#options.onStartupExit?.(exit, child);
      return;
    }
    this.#options.onCrash?.(exit);
    const now = Date.now();
    const recent = (this.#crashes.get(spec.name) ?? []).filter((t) => now - t < this.#options.windowMs);
    recent.push(now);
    this.#crashes.set(spec.name, recent);
    const { maxCrashes, windowMs } = this.#options;
    if (recent.length >= maxCrashes) {
      this.#options.log(
        `${describeExit(exit, child.output())}\n[stack] ${spec.name} crashed ${recent.length} times within ` +
          `${Math.round(windowMs / 1000)} s: not restarting it again.`,
      );
      this.#giveUp(exit);
      return;
    }
    const delay = Math.min(this.#options.baseDelayMs * 2 ** (recent.length - 1), this.#options.maxDelayMs);
    this.#options.log(
      `${describeExit(exit, child.output())}\n[stack] restarting ${spec.name} in ${(delay / 1000).toFixed(1)} s ` +
        `(crash ${recent.length} within ${Math.round(windowMs / 1000)} s; ${maxCrashes} stop the portal).`,
    );
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      if (this.#stopping) return;
      this.#restarts += 1;
      this.start(this.#specs.get(spec.name) ?? spec);
    }, delay);
    this.#timers.add(timer);
  }
}
