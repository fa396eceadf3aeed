import { readdirSync, readFileSync } from 'node:fs';

/**
 * Where a load's CPU goes: CPU seconds (user + system, from /proc/<pid>/stat) of named groups of
 * processes between start() and stop(), plus this process's own (the load generator). Used by
 * bench:cluster to say how much a second API process can add on this machine: with the API at one
 * core and the rest of each load's CPU on the same cores, N cores allow at most N x (the API's share of
 * a load's CPU) times one process's rate.
 */

/** The kernel's clock ticks per second for /proc times (USER_HZ, 100 on Linux). */
const TICKS = 100;

/** CPU seconds (user + system) a process has used; NaN when it is gone (or not Linux). */
export function cpuSecondsOf(pid: number): number {
  try {
    // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return NaN;
  }
}

/** Pids of the processes whose command name is `comm` (e.g. redis-server), any owner. */
export function pidsByCommand(comm: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === comm) pids.push(Number(entry));
    } catch {
      // gone between the listing and the read
    }
  }
  return pids;
}

export type CpuGroups = Record<string, () => number[] | Promise<number[]>>;

export class CpuMeter {
  readonly totals: Record<string, number> = {};
  #before: Record<string, number> = {};
  #pids: Record<string, number[]> = {};
  #self = process.cpuUsage();

  constructor(private readonly groups: CpuGroups) {}

  async start(): Promise<void> {
    for (const [name, pids] of Object.entries(this.groups)) {
      this.#pids[name] = await pids();
      this.#before[name] = this.#pids[name]!.reduce((sum, pid) => sum + (cpuSecondsOf(pid) || 0), 0);
    }
    this.#self = process.cpuUsage();
  }

  /** Adds the CPU seconds since start() to the totals (the same pids: a pool's new backends are missed). */
  stop(): void {
    const self = process.cpuUsage(this.#self);
    this.totals['load generator (this process)'] =
      (this.totals['load generator (this process)'] ?? 0) + (self.user + self.system) / 1e6;
    for (const name of Object.keys(this.groups)) {
      const now = this.#pids[name]!.reduce((sum, pid) => sum + (cpuSecondsOf(pid) || 0), 0);
      this.totals[name] = (this.totals[name] ?? 0) + Math.max(0, now - this.#before[name]!);
    }
  }
}
