/**
 * The steps of startStack (stack.ts), each named for what it does: the entry files, the ports, the
 * services, the database, the processes' environment, starting and waiting for them, nginx in front
 * of a cluster, and restarting one instance.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { migrate } from '@helix/server/db/migrate';
import { ROOT, WEB_DIST_DIR } from './paths.ts';
import { freePort, portHeldBy, portIsFree, waitFor } from './services/net.ts';
import { resolvePostgres } from './services/postgres.ts';
import { startNginx, type NginxService } from './nginx.ts';
import { describeExit, tsxArgs } from './services/process.ts';
import type { Supervisor } from './supervisor.ts';
import { resolveRedis } from './services/redis.ts';
import { resolveS3, type S3Service } from './services/s3.ts';
import { resolveSmtp, type SmtpService } from './services/smtp.ts';
import type { Service } from './services/types.ts';
import type { ProcessName, Stack, StackOptions } from './stack-types.ts';

const DEFAULT_ENTRIES: Record<ProcessName, string> = {
  api: path.join(ROOT, 'apps/api/src/main.ts'),
  worker: path.join(ROOT, 'apps/worker/src/main.ts'),
  viewer: path.join(ROOT, 'apps/viewer/src/serve.ts'),
};

/** What `npm run build` compiles them to (packages/stack/bin/build-server.mjs). */
export const COMPILED_ENTRIES: Record<ProcessName, string> = {
  api: path.join(ROOT, 'apps/api/dist-node/main.js'),
  worker: path.join(ROOT, 'apps/worker/dist-node/main.js'),
  viewer: path.join(ROOT, 'apps/viewer/dist-node/serve.js'),
};

/** How a process is started: plain node for a compiled .js file, node with tsx for TypeScript. */
export function processCommand(file: string): { command: string; args: string[] } {
  if (file.endsWith('.js')) return { command: process.execPath, args: ['--enable-source-maps', file] };
  return tsxArgs(file);
}

/** The three processes' entry files; a compiled start builds first when its output is missing. */
export function entriesOf(options: StackOptions, compiled: boolean) {
  const entries = { ...(compiled ? COMPILED_ENTRIES : DEFAULT_ENTRIES), ...options.entries };
  // A compiled start builds first when the output is missing (HELIX_BUILD=never aside).
  const needBuild = compiled && Object.values(entries).some((file) => !existsSync(file));
  for (const [name, file] of Object.entries(entries)) {
    if (!existsSync(file) && !(needBuild && options.build !== false))
      throw new Error(
        `cannot start ${name}: ${path.relative(ROOT, file)} does not exist` +
          (compiled ? ' (run `npm run build`)' : ''),
      );
  }
  return { entries, needBuild };
}

/** The portal's two ports and, in a cluster, the processes' own ports behind nginx. */
export async function portsOf(options: StackOptions) {
  const apiPort = await choosePort(options.apiPort, 'PORT');
  const viewerPort = await choosePort(options.viewerPort, 'VIEWER_PORT');
  const cluster = options.cluster && {
    apis: Math.max(1, options.cluster.apis),
    workers: Math.max(1, options.cluster.workers),
  };
  // In a cluster nginx takes apiPort and viewerPort; the processes listen on ports of their own.
  const apiPorts = cluster
    ? await Promise.all(Array.from({ length: cluster.apis }, () => freePort()))
    : [apiPort];
  const viewerProcessPort = cluster ? await freePort() : viewerPort;
  return { apiPort, viewerPort, cluster, apiPorts, viewerProcessPort };
}

/**
 * PostgreSQL, Redis and SMTP (found or started, services.ts) and, when wanted, S3. Each one started is
 * pushed onto `services` at once, so the caller stops it even when a later one fails.
 */
export async function startServices(
  options: StackOptions,
  cluster: boolean,
  services: Service[],
  serviceOptions: { dataDir: string; quiet: boolean; log: (message: string) => void },
) {
  const settled = await Promise.allSettled([
    resolvePostgres({ ...serviceOptions, databaseUrl: options.databaseUrl }),
    resolveRedis({ ...serviceOptions, redisUrl: options.redisUrl }),
    resolveSmtp({ ...serviceOptions, smtpUrl: options.smtpUrl }),
  ]);
  for (const result of settled) if (result.status === 'fulfilled') services.push(result.value);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  const [postgres, redis, smtp] = services as [Service, Service, SmtpService];
  // Object storage: the local folder, or S3 (S3_ENDPOINT/S3_BUCKET when set, else the embedded
  // S3-compatible server). A cluster's processes share S3 by default, the way a deployment does;
  // HELIX_STORAGE=local keeps them on the one local folder (every process here reads the same disk).
  const wantsS3 = cluster
    ? (options.clusterStorage ?? process.env.HELIX_STORAGE ?? 's3') === 's3'
    : (options.storage ?? process.env.STORAGE) === 's3';
  let s3: S3Service | undefined;
  if (wantsS3) services.push((s3 = await resolveS3(serviceOptions)));
  for (const service of services) serviceOptions.log(service.description);
  return { postgres, redis, smtp, s3 };
}

/** Applies the migrations and, unless told not to, the seed (both idempotent). */
export async function prepareDatabase(url: string, withSeed: boolean, log: (message: string) => void) {
  const applied = await migrate(url);
  log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema is up to date');
  if (withSeed) {
    const { seed } = await import('../../../prisma/seed.ts');
    const summary = await seed(url);
    log(`seed: ${summary}`);
  }
}

/** Starts the API, worker and viewer processes under the supervisor (a cluster: N APIs and workers). */
export function startProcesses(
  supervisor: Supervisor,
  opts: {
    entries: Record<ProcessName, string>;
    env: Record<string, string>;
    cluster: { apis: number; workers: number } | undefined;
    apiPorts: number[];
    quiet: boolean;
  },
) {
  const { entries, env, cluster, apiPorts, quiet } = opts;
  const apiNames: string[] = [];
  const workerNames: string[] = [];
  if (cluster) {
    apiPorts.forEach((port, i) => {
      apiNames.push(`api-${i + 1}`);
      const { command, args } = processCommand(entries.api);
      supervisor.start({ name: `api-${i + 1}`, command, args, env: { ...env, PORT: String(port) }, quiet });
    });
    for (let i = 0; i < cluster.workers; i += 1) {
      const name = `worker-${i + 1}`;
      workerNames.push(name);
      const { command, args } = processCommand(entries.worker);
      // Each worker's metrics port of its own, when metrics are on.
      const metrics = env.METRICS_PORT ? { METRICS_PORT: String(Number(env.METRICS_PORT) + i) } : {};
      supervisor.start({ name, command, args, env: { ...env, ...metrics }, quiet });
    }
    const { command, args } = processCommand(entries.viewer);
    supervisor.start({ name: 'viewer', command, args, env, quiet });
  } else {
    for (const name of ['api', 'worker', 'viewer'] as const) {
      const { command, args } = processCommand(entries[name]);
      supervisor.start({ name, command, args, env, quiet });
    }
  }
  return { apiNames, workerNames };
}

/** The environment of the API, worker and viewer processes: the services' addresses and the ports. */
export function processEnv(
  options: StackOptions,
  at: {
    apiPort: number;
    viewerPort: number;
    apiProcessPort: number;
    viewerProcessPort: number;
    dataDir: string;
    cluster: boolean;
    postgres: Service;
    redis: Service;
    smtp: SmtpService;
    s3: S3Service | undefined;
  },
): Record<string, string> {
  const { apiPort, viewerPort, viewerProcessPort, dataDir, cluster, postgres, redis, smtp, s3 } = at;
  return {
    ...inheritedEnv(),
    NODE_ENV: process.env.NODE_ENV ?? 'development',
    PORT: String(at.apiProcessPort),
    VIEWER_PORT: String(viewerProcessPort),
    PUBLIC_URL: process.env.PUBLIC_URL ?? `http://localhost:${apiPort}`,
    VIEWER_URL: process.env.VIEWER_URL ?? `http://localhost:${viewerPort}`,
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    REDIS_PREFIX: process.env.REDIS_PREFIX ?? 'helix',
    SMTP_URL: smtp.url,
    WEB_DIST_DIR: process.env.WEB_DIST_DIR ?? WEB_DIST_DIR,
    STORAGE_DIR: process.env.STORAGE_DIR ?? path.join(dataDir, 'storage'),
    ...(smtp.mailDir ? { DEV_MAIL_DIR: smtp.mailDir } : {}),
    ...s3?.env,
    // Behind the local nginx: X-Forwarded-* are believed from it (127.0.0.1) only; a stopping API
    // drains for 2 s (readiness 503, Connection: close) before it closes its port.
    ...(cluster
      ? {
          TRUST_PROXY: process.env.TRUST_PROXY ?? '127.0.0.1',
          SHUTDOWN_DRAIN_MS: process.env.SHUTDOWN_DRAIN_MS ?? '2000',
        }
      : {}),
    ...options.env,
  };
}

/** Stack.restart: one instance stopped and started again, resolved once the new one answers. */
export function restarter(
  supervisor: Supervisor,
  at: {
    env: Record<string, string>;
    apiNames: string[];
    apiPorts: number[];
    viewerProcessPort: number;
    timeoutMs: number;
  },
): Stack['restart'] {
  const { env, apiNames, apiPorts, viewerProcessPort, timeoutMs } = at;
  return async (name, restartOptions = {}) => {
    const started = performance.now();
    const portOf = (instance: string) => {
      if (instance === 'viewer') return viewerProcessPort;
      if (instance === 'api') return apiPorts[0]!;
      const index = apiNames.indexOf(instance);
      return index >= 0 ? apiPorts[index] : undefined;
    };
    const infoLogged = !/^(warn|error|fatal|silent)$/.test(env.LOG_LEVEL ?? 'info');
    const { child, exit } = await supervisor.restart(name, restartOptions.stopTimeoutMs ?? 30_000);
    const stoppedMs = performance.now() - started;
    // Listen for the worker's line before it can be printed.
    const workerStarted =
      name.startsWith('worker') && infoLogged
        ? child.waitForLine(/worker started/, restartOptions.readyTimeoutMs ?? timeoutMs)
        : name === 'stripe-local'
          ? child.waitForLine(/listening on http/, restartOptions.readyTimeoutMs ?? timeoutMs)
          : undefined;
    workerStarted?.catch(() => {}); // raced below
    // A new process that exits while starting fails the restart at once (not at the timeout).
    const died = child.exited.then((exit) => {
      throw new Error(describeExit(exit, child.output()));
    });
    died.catch(() => {});
    const port = portOf(name);
    if (port !== undefined) {
      const ready = name === 'viewer' ? '/' : '/api/health/ready';
      await Promise.race([
        died,
        waitFor(
          `${name} (GET http://127.0.0.1:${port}${ready} answering)`,
          async () => {
            const status = await httpStatus(`http://127.0.0.1:${port}${ready}`);
            return (name === 'viewer' || status === 200) && portHeldBy(port, child.pid);
          },
          { timeoutMs: restartOptions.readyTimeoutMs ?? timeoutMs, intervalMs: 100 },
        ),
      ]);
    }
    await Promise.race([died, workerStarted]);
    return { child, exit, stoppedMs, readyMs: performance.now() - started - stoppedMs };
  };
}

/**
 * Until every API answers GET /api/health with 200 and the viewer answers at all. Each answer must come
 * from our own process (portHeldBy): another server that took the port meanwhile would answer too,
 * while ours dies with EADDRINUSE.
 */
export async function waitUntilAnswering(
  supervisor: Supervisor,
  at: {
    apiPorts: number[];
    viewerProcessPort: number;
    cluster: boolean;
    timeoutMs: number;
    signal: AbortSignal;
  },
): Promise<void> {
  const { apiPorts, viewerProcessPort, cluster, timeoutMs } = at;
  const waitSignal = at.signal;
  await Promise.all([
    ...apiPorts.map((port, i) =>
      waitFor(
        `the API (GET http://127.0.0.1:${port}/api/health answering 200)`,
        async () =>
          (await httpStatus(`http://127.0.0.1:${port}/api/health`)) === 200 &&
          portHeldBy(port, supervisor.current(cluster ? `api-${i + 1}` : 'api')?.pid),
        { timeoutMs, intervalMs: 250, signal: waitSignal },
      ),
    ),
    // Any HTTP answer will do: the viewer's routes are its own business.
    waitFor(
      `the viewer on port ${viewerProcessPort}`,
      async () => {
        await httpStatus(`http://127.0.0.1:${viewerProcessPort}/`);
        return portHeldBy(viewerProcessPort, supervisor.current('viewer')?.pid);
      },
      { timeoutMs, intervalMs: 250, signal: waitSignal },
    ),
  ]);
}

/** A cluster's front: nginx on the portal's two ports, over the API processes and the viewer. */
export function startClusterNginx(at: {
  dataDir: string;
  env: Record<string, string>;
  apiPort: number;
  viewerPort: number;
  apiPorts: number[];
  viewerProcessPort: number;
  quiet: boolean;
  signal: AbortSignal;
}): Promise<NginxService> {
  const { dataDir, env, apiPort, viewerPort, apiPorts, viewerProcessPort, quiet, signal } = at;
  return startNginx({
    prefix: path.join(dataDir, 'cluster', 'nginx'),
    values: {
      apis: apiPorts.map((port) => `127.0.0.1:${port}`),
      viewers: [`127.0.0.1:${viewerProcessPort}`],
      portalListen: `127.0.0.1:${apiPort}`,
      viewerListen: `127.0.0.1:${viewerPort}`,
      webDist: env.WEB_DIST_DIR ?? WEB_DIST_DIR,
      // The largest model upload, with room for the form around it.
      maxBody: `${Number(env.MODEL_UPLOAD_MAX_MB ?? 50) + 10}m`,
    },
    ports: [apiPort, viewerPort],
    quiet,
    signal,
  });
}

/** The status of a GET (the body read and dropped); rejects when nothing answers within 3 s. */
async function httpStatus(url: string): Promise<number> {
  const response = await fetch(url, { signal: AbortSignal.timeout(3000) });
  await response.arrayBuffer();
  return response.status;
}

/** A requested port must be free (a clear message instead of a crash in a child); none requested = a free one. */
async function choosePort(requested: number | undefined, variable: string): Promise<number> {
  if (!requested) return freePort();
  if (!(await portIsFree(requested))) {
    throw new Error(
      `port ${requested} is already in use (is another Helix or another server running?). ` +
        `Stop it or choose another port with ${variable}=<port>.`,
    );
  }
  return requested;
}

/** process.env without the test runner's own variables. */
function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined || key.startsWith('VITEST')) continue;
    env[key] = value;
  }
  return env;
}

// --- building the web app and the viewer -----------------------------------------------------------
