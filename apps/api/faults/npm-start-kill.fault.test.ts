import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, portIsFree, sleep, waitFor } from '@helix/stack/services/net';
import { guardChild } from '@helix/stack/services/orphan-guard';
import { tsxArgs } from '@helix/stack/services/process';
import { createDatabase, dropDatabase } from '@helix/stack/test-db';

/**
 * `npm start` killed (issue 28, point 3). stripe-local is one of the processes its supervisor keeps
 * running: SIGKILLed, it is started again on its port with its state, and billing answers again while
 * the API, worker and viewer keep running. The supervisor SIGKILLed: its API, worker, viewer and
 * stripe-local are gone within seconds (none is left with parent 1), and a fresh `npm start` on the
 * same ports starts cleanly (no "port already in use").
 *
 * Runs the supervisor, packages/stack/src/start.ts, as `npm start` runs it (after bin/start.mjs has
 * checked the install), with HELIX_BUILD=never (the suite runs beside the build), its own database,
 * Redis prefix, data folder and ports below Linux's ephemeral range.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const START = path.join(ROOT, 'packages/stack/src/start.ts');
const OWNER = { email: 'owner@demo.helix.local', password: 'owner-demo-2026' };

const dbName = `helix_fault_start_${randomBytes(4).toString('hex')}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'helix-fault-start-'));
const viewerDist = path.join(dataDir, 'viewer-dist');
let databaseUrl: string;
let ports: { api: number; viewer: number; stripe: number };
const portals: Portal[] = [];

interface Portal {
  /** The supervisor: start.ts. */
  launcher: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** Three free ports in a row (outside the kernel's ephemeral range, see freePort). */
const freePortsBelowEphemeral = () => freePort('127.0.0.1', 3);

/** The processes whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return found;
}

const commandLine = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
};

/** Running, and not a zombie. */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function startPortal(): Promise<Portal> {
  let output = '';
  const { command, args } = tsxArgs(START);
  const launcher = spawn(command, args, {
    cwd: ROOT,
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('VITEST'))),
      NODE_ENV: 'development',
      DATABASE_URL: databaseUrl,
      REDIS_PREFIX: dbName,
      PORT: String(ports.api),
      VIEWER_PORT: String(ports.viewer),
      STRIPE_LOCAL_PORT: String(ports.stripe),
      HELIX_DATA_DIR: dataDir,
      HELIX_BUILD: 'never',
      // The viewer host serves a page of its own: the case runs beside the build that makes the real one.
      VIEWER_DIST: viewerDist,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  guardChild(launcher);
  launcher.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  launcher.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
  const portal = { launcher, output: () => output, exited };
  portals.push(portal);
  const gone = new AbortController();
  void exited.then(() => gone.abort());
  await waitFor('npm start saying "Helix is running"', async () => output.includes('Helix is running'), {
    timeoutMs: 240_000,
    intervalMs: 250,
    signal: gone.signal,
  }).catch((error: unknown) => {
    throw new Error(`npm start did not come up:\n${output}`, { cause: error });
  });
  return portal;
}

/** The supervisor and its children by name. */
function processes(portal: Portal) {
  const supervisor = portal.launcher.pid!;
  const children = childrenOf(supervisor);
  const named = (part: string) => children.find((pid) => commandLine(pid).includes(part));
  return {
    supervisor,
    children,
    api: named('apps/api/src/main.ts'),
    worker: named('apps/worker/src/main.ts'),
    viewer: named('apps/viewer/src/serve.ts'),
    stripeLocal: named('packages/stripe-local/src/main.ts'),
  };
}

async function call(pathname: string, init: RequestInit = {}) {
  const res = await fetch(`http://127.0.0.1:${ports.api}${pathname}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

/**
 * The demo owner's Billing History: its invoices are read from Stripe (the demo subscription's first
 * invoice is there once the demo plan reached Stripe), so "answered" means stripe-local answered.
 */
async function invoices(): Promise<{ status: number; count: number }> {
  const login = await call('/api/user/login', { method: 'POST', body: JSON.stringify(OWNER) });
  if (login.status !== 200) return { status: login.status, count: 0 };
  const { apiToken, tenant } = login.body as { apiToken: string; tenant: string };
  const list = await call(`/api/t/${tenant}/subscription/invoices`, {
    headers: { authorization: `Bearer ${apiToken}` },
  });
  return { status: list.status, count: (list.body?.invoices as unknown[] | undefined)?.length ?? 0 };
}

async function invoicesAnswer(within: number): Promise<number> {
  const started = performance.now();
  await waitFor(
    'Billing History answering 200 with the demo invoice',
    async () => {
      const { status, count } = await invoices();
      return status === 200 && count > 0;
    },
    { timeoutMs: within, intervalMs: 500 },
  );
  return Math.round(performance.now() - started);
}

beforeAll(async () => {
  databaseUrl = await createDatabase(dbName);
  mkdirSync(viewerDist, { recursive: true });
  writeFileSync(path.join(viewerDist, 'index.html'), '<!doctype html><title>viewer</title>');
  const first = await freePortsBelowEphemeral();
  ports = { api: first, viewer: first + 1, stripe: first + 2 };
});
afterAll(async () => {
  for (const portal of portals) {
    if (portal.launcher.exitCode === null && portal.launcher.signalCode === null)
      portal.launcher.kill('SIGTERM');
    await portal.exited;
  }
  await dropDatabase(dbName).catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start killed', () => {
  it(
    'a SIGKILLed stripe-local is started again on its port and billing answers again',
    { timeout: 400_000 },
    async () => {
      const portal = await startPortal();
      // The demo plan reaches Stripe through its webhook, which a loaded machine may deliver late.
      await invoicesAnswer(90_000);
      const before = processes(portal);
      expect(before.stripeLocal, 'stripe-local is a child of the supervisor').toBeDefined();

      process.kill(before.stripeLocal!, 'SIGKILL');
      // Billing answers 502 while it is down (the restart waits 1 s first), then works again. The
      // Stripe client's own retries (two, after about 0.5 s and 1 s) can outlast a quick restart on a
      // loaded machine: the answer is then the restarted stripe-local's (seen once in a CI run).
      const during = await invoices();
      if (during.status < 500) {
        expect(during.status, JSON.stringify(during)).toBe(200);
        expect(processes(portal).stripeLocal, 'answered by the restarted stripe-local').not.toBe(
          before.stripeLocal,
        );
      }
      const back = await invoicesAnswer(60_000);
      const after = processes(portal);
      expect(after.stripeLocal).toBeDefined();
      expect(after.stripeLocal).not.toBe(before.stripeLocal);
      // The others kept serving: the same processes.
      expect([after.api, after.worker, after.viewer]).toEqual([before.api, before.worker, before.viewer]);
      expect(portal.output()).toMatch(/stripe-local was killed by SIGKILL[\s\S]*restarting stripe-local in/);
      console.log(
        `stripe-local SIGKILLed under npm start: Billing History answered 200 again after ${back} ms`,
      );
    },
  );

  it(
    'a SIGKILLed supervisor leaves none of its processes; a fresh start starts cleanly',
    { timeout: 400_000 },
    async () => {
      const portal = portals[0]!;
      const before = processes(portal);
      const started = [before.api, before.worker, before.viewer, before.stripeLocal];
      expect(started.every((pid) => pid !== undefined && alive(pid))).toBe(true);

      const killedAt = performance.now();
      process.kill(before.supervisor, 'SIGKILL');
      await waitFor("the supervisor's processes gone", async () => !before.children.some(alive), {
        timeoutMs: 8000,
        intervalMs: 100,
      }).catch(() => {
        throw new Error(
          `left running: ${before.children
            .filter(alive)
            .map((pid) => `${pid} ${commandLine(pid)}`)
            .join('\n')}`,
        );
      });
      const goneMs = Math.round(performance.now() - killedAt);
      await portal.exited;
      for (const port of Object.values(ports)) expect(await portIsFree(port), `port ${port}`).toBe(true);

      const again = await startPortal();
      expect(again.output()).not.toMatch(/already in use/);
      await invoicesAnswer(90_000);
      again.launcher.kill('SIGTERM');
      expect(await again.exited).toBe(0);
      await sleep(0);
      console.log(
        `supervisor SIGKILLed: its ${before.children.length} processes gone after ${goneMs} ms; a fresh start came up`,
      );
    },
  );
});
