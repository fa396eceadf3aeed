import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../paths.ts';
import { guardChild } from './orphan-guard.ts';

export interface ChildSpec {
  /** Short name used as the output prefix: [api], [worker], ... */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Do not print the child's output (it is still kept for error messages). */
  quiet?: boolean;
}

export interface ChildExit {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  error?: Error;
}

const TAIL_LINES = 40;
const live = new Set<ManagedChild>();
let exitHookInstalled = false;

/**
 * When this process exits without stopping its children, kill them at once (the reaper of
 * orphan-guard.ts does it too, and also when this process is killed without an exit).
 */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) child.signal('SIGKILL');
  });
}

/**
 * A child process in its own process group (so a terminal's Ctrl-C reaches only the orchestrator, which
 * then stops the children in order), with its output prefixed line by line and the last lines kept for
 * error messages. It dies with this process however this one ends, SIGKILL included (guardChild).
 */
export class ManagedChild {
  readonly name: string;
  readonly process: ChildProcess;
  readonly exited: Promise<ChildExit>;
  /** Set once stop() was called: an exit after that is expected. */
  stopping = false;
  private readonly tail: string[] = [];
  private readonly lineListeners = new Set<(line: string) => void>();

  constructor(spec: ChildSpec) {
    installExitHook();
    this.name = spec.name;
    this.process = spawn(spec.command, spec.args, {
      cwd: spec.cwd ?? ROOT,
      env: spec.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    guardChild(this.process);
    live.add(this);
    const prefix = `[${spec.name}] `;
    for (const stream of [this.process.stdout, this.process.stderr]) {
      if (!stream) continue;
      const target = stream === this.process.stderr ? process.stderr : process.stdout;
      readline.createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => {
        this.tail.push(line);
        if (this.tail.length > TAIL_LINES) this.tail.shift();
        for (const listener of this.lineListeners) listener(line);
        if (!spec.quiet) target.write(prefix + line + '\n');
      });
    }
    this.exited = new Promise<ChildExit>((resolve) => {
      this.process.once('error', (error) => {
        live.delete(this);
        resolve({ name: this.name, code: null, signal: null, error });
      });
      this.process.once('exit', (code, signal) => {
        live.delete(this);
        // 'close' follows once the output pipes are drained (so the last lines are in output());
        // a grandchild holding them open must not delay this for long.
        const done = () => resolve({ name: this.name, code, signal });
        const timer = setTimeout(done, 500);
        this.process.once('close', () => {
          clearTimeout(timer);
          done();
        });
      });
    });
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get running(): boolean {
    return live.has(this);
  }

  /** The last lines the child printed. */
  output(): string {
    return this.tail.join('\n');
  }

  /** Resolves with the first output line that matches. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => finish(new Error(`${this.name}: timed out waiting for ${pattern}`)),
        timeoutMs,
      );
      const listener = (line: string) => {
        const match = line.match(pattern);
        if (match) finish(null, match);
      };
      const finish = (error: Error | null, match?: RegExpMatchArray) => {
        clearTimeout(timer);
        this.lineListeners.delete(listener);
        if (error) reject(error);
        else resolve(match!);
      };
      this.lineListeners.add(listener);
      void this.exited.then((exit) => finish(new Error(describeExit(exit, this.output()))));
    });
  }

  /** Sends a signal to the child's whole process group. */
  signal(sig: NodeJS.Signals): void {
    const pid = this.process.pid;
    if (!pid || !live.has(this)) return;
    try {
      process.kill(-pid, sig);
    } catch {
      try {
        this.process.kill(sig);
      } catch {
        // already gone
      }
    }
  }

  /** SIGTERM, then SIGKILL when it has not exited after `timeoutMs`. */
  async stop(timeoutMs = 5000): Promise<ChildExit> {
    this.stopping = true;
    if (!this.running) return this.exited;
    this.signal('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      this.exited.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), timeoutMs))),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      process.stderr.write(`[stack] ${this.name} did not stop within ${timeoutMs} ms: killing it\n`);
      this.signal('SIGKILL');
    }
    return this.exited;
  }
}

export function describeExit(exit: ChildExit, output = ''): string {
  const how = exit.error
    ? `could not start (${exit.error.message})`
    : exit.signal
      ? `was killed by ${exit.signal}`
      : `exited with code ${exit.code}`;
  const tail = output.trim() ? `\n--- last output of ${exit.name} ---\n${output.trim()}\n---` : '';
  return `${exit.name} ${how}${tail}`;
}

/** `node --import tsx <file>`: runs a TypeScript entry in a single Node process (no tsx wrapper process). */
export function tsxArgs(file: string, ...args: string[]): { command: string; args: string[] } {
  const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { command: process.execPath, args: ['--import', loader, file, ...args] };
}
