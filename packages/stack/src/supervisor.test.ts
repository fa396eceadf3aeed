import { afterEach, describe, expect, it } from 'vitest';
import { freePort, waitFor } from './services/net.ts';
import { Supervisor } from './supervisor.ts';

/** A tiny HTTP server (a stand-in for the API, worker or viewer) answering its own pid. */
const SERVER = `
const http = require('node:http');
http.createServer((_req, res) => res.end(String(process.pid))).listen(Number(process.env.PORT), '127.0.0.1');
`;

const pidOn = async (port: number): Promise<number | null> => {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(1000) });
    return Number(await res.text());
  } catch {
    return null;
  }
};

let supervisor: Supervisor | undefined;
afterEach(async () => {
  await supervisor?.stop(2000);
  supervisor = undefined;
});

describe('Supervisor (npm start keeps the portal running)', () => {
  it('restarts one named process on request (a rolling restart): graceful stop, started again, not a crash', async () => {
    const crashes: string[] = [];
    supervisor = new Supervisor({
      baseDelayMs: 200,
      log: () => {},
      onCrash: (exit) => crashes.push(exit.name),
    });
    const [onePort, twoPort] = [await freePort(), await freePort()];
    const spec = (name: string, port: number) => ({
      name,
      command: process.execPath,
      args: ['-e', SERVER],
      env: { ...process.env, PORT: String(port) },
      quiet: true,
    });
    const one = supervisor.start(spec('api-1', onePort));
    const two = supervisor.start(spec('api-2', twoPort));
    await waitFor('both up', async () => (await pidOn(onePort)) !== null && (await pidOn(twoPort)) !== null);
    supervisor.running();

    const { child, exit } = await supervisor.restart('api-1', 2000);
    expect(exit.signal).toBe('SIGTERM');
    expect(child.pid).not.toBe(one.pid);
    expect(supervisor.current('api-1')).toBe(child);
    await waitFor('api-1 again', async () => (await pidOn(onePort)) === child.pid);
    // The other process was left alone, and a planned restart is no crash.
    expect(await pidOn(twoPort)).toBe(two.pid);
    expect(crashes).toEqual([]);
    await expect(supervisor.restart('api-3')).rejects.toThrow('no process named api-3');
  });

  it('restarts a killed process with a log line while the others keep serving', async () => {
    const lines: string[] = [];
    supervisor = new Supervisor({ baseDelayMs: 200, log: (line) => lines.push(line) });
    const [workerPort, apiPort] = [await freePort(), await freePort()];
    const spec = (name: string, port: number) => ({
      name,
      command: process.execPath,
      args: ['-e', SERVER],
      env: { ...process.env, PORT: String(port) },
      quiet: true,
    });
    const worker = supervisor.start(spec('worker', workerPort));
    const api = supervisor.start(spec('api', apiPort));
    await waitFor(
      'both up',
      async () => (await pidOn(workerPort)) !== null && (await pidOn(apiPort)) !== null,
    );
    supervisor.running();

    worker.signal('SIGKILL');
    await worker.exited;
    // The API keeps serving, the same process, while the worker is down.
    expect(await pidOn(apiPort)).toBe(api.pid);

    await waitFor('the worker back', async () => {
      const pid = await pidOn(workerPort);
      return pid !== null && pid !== worker.pid;
    });
    expect(supervisor.current('worker')).not.toBe(worker);
    expect(await pidOn(workerPort)).toBe(supervisor.current('worker')!.pid);
    expect(supervisor.current('api')).toBe(api);
    expect(supervisor.restarts).toBe(1);
    expect(lines.join('\n')).toMatch(/worker was killed by SIGKILL[\s\S]*restarting worker in 0\.2 s/);
  });

  it('gives up on a process that keeps crashing (maxCrashes within the window)', async () => {
    const lines: string[] = [];
    const crashes: string[] = [];
    supervisor = new Supervisor({
      maxCrashes: 3,
      windowMs: 30_000,
      baseDelayMs: 50,
      log: (line) => lines.push(line),
      onCrash: (exit) => crashes.push(exit.name),
    });
    const port = await freePort();
    // Up long enough to be "running", then exits with code 1 each time.
    supervisor.start({
      name: 'viewer',
      command: process.execPath,
      args: ['-e', `${SERVER}; setTimeout(() => process.exit(1), 300);`],
      env: { ...process.env, PORT: String(port) },
      quiet: true,
    });
    supervisor.running();
    const exit = await supervisor.gaveUp;
    expect(exit).toMatchObject({ name: 'viewer', code: 1 });
    expect(crashes).toEqual(['viewer', 'viewer', 'viewer']);
    expect(supervisor.restarts).toBe(2);
    expect(lines.at(-1)).toMatch(/viewer crashed 3 times within 30 s: not restarting it again/);
  });

  it('does not restart a process that exits while the portal is still starting', async () => {
    const early: string[] = [];
    supervisor = new Supervisor({ baseDelayMs: 50, onStartupExit: (exit) => early.push(exit.name) });
    const child = supervisor.start({
      name: 'api',
      command: process.execPath,
      args: ['-e', 'process.exit(3)'],
      quiet: true,
    });
    await child.exited;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(early).toEqual(['api']);
    expect(supervisor.restarts).toBe(0);
  });
});
