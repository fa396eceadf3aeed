import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { tsxArgs } from './process.ts';

const RUNNER = path.join(import.meta.dirname, '..', 'testing', 'guarded-runner.ts');

/** Running, and not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const started: number[] = [];
// A failing case must not leave its own processes behind either.
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
});

async function runner(...args: string[]) {
  const { command, args: argv } = tsxArgs(RUNNER, ...args);
  const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout! });
  const pids = await new Promise<number[]>((resolve, reject) => {
    lines.on(
      'line',
      (line) => line.startsWith('{') && resolve((JSON.parse(line) as { pids: number[] }).pids),
    );
    child.once('exit', (code) =>
      reject(new Error(`the runner exited (${code}) before starting its children`)),
    );
  });
  started.push(child.pid!, ...pids);
  return { child, pids };
}

async function goneWithin(pids: number[], ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(alive);
}

describe('children die with whoever started them', () => {
  it.each(['SIGKILL', 'SIGTERM'] as const)(
    'a %s of the starter ends its children, their process groups included, within 5 s',
    async (signal) => {
      const { child, pids } = await runner();
      expect(pids).toHaveLength(3);
      expect(pids.every(alive)).toBe(true);
      child.kill(signal);
      expect(await goneWithin(pids, 5000)).toEqual([]);
    },
  );

  it('an exit of the starter without stopping them ends them too', async () => {
    const { child, pids } = await runner('--exit');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(await goneWithin(pids, 5000)).toEqual([]);
  });
});
