import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { migrate } from './migrate.ts';
import { DEFAULT_DATA_DIR, ROOT, WEB_DIST_DIR } from './paths.ts';
import { freePort, portHeldBy, portIsFree, waitFor } from './services/net.ts';
import { resolvePostgres } from './services/postgres.ts';
import { startNginx, type NginxService } from './nginx.ts';
import { describeExit, ManagedChild, tsxArgs, type ChildExit } from './services/process.ts';
import { Supervisor, type SupervisorOptions } from './supervisor.ts';
import { resolveRedis } from './services/redis.ts';
import { resolveS3, type S3Service } from './services/s3.ts';
import { resolveSmtp, type SmtpService } from './services/smtp.ts';
import { resolveStripe } from './services/stripe.ts';
import type { Service } from './services/types.ts';

export interface StackOptions {
  /** Default: DATABASE_URL, else 127.0.0.1:5432 (database helix), else embedded PGlite. */
  databaseUrl?: string;
  /** Default: REDIS_URL, else 127.0.0.1:6379, else a redis-server child. */
  redisUrl?: string;
  /** Default: SMTP_URL, else the mail catcher writing <dataDir>/mail/*.eml. */
  smtpUrl?: string;
  /**
   * Where model files and images live (default: the STORAGE environment variable, else 'local'):
   * 'local' = the folder STORAGE_DIR (<dataDir>/storage); 's3' = S3_ENDPOINT/S3_BUCKET when set,
   * else an embedded S3-compatible server keeping objects in <dataDir>/s3.
   */
  storage?: 'local' | 's3';
  /** API port (serves the web app too). Default: a free port. */
  apiPort?: number;
  /** Viewer host port. Default: a free port. */
  viewerPort?: number;
  /** Extra environment for the API, worker and viewer; wins over everything the stack sets. */
  env?: Record<string, string>;
  /** Apply the idempotent seed after migrating (default true). */
  seed?: boolean;
  /** Run `npm run build` (web + viewer) first: true, false (default), or 'auto' = only when a build is missing or older than its sources. */
  build?: boolean | 'auto';
  /** stripe-local's port when STRIPE_SECRET_KEY is unset (default STRIPE_LOCAL_PORT, else 12111; 0 = free). */
  stripePort?: number;
  /**
   * Keep stripe-local's state in <dataDir>/stripe-local.json across starts of the stack (default true);
   * false keeps it for this start only (across restarts of the stripe-local process).
   */
  stripePersist?: boolean;
  /** Hide the children's output (it still appears in error messages). */
  quiet?: boolean;
  /** Folder for embedded service data, caught mail and stored files (default <repo>/.data). */
  dataDir?: string;
  /**
   * Run the compiled processes (`npm run build` writes them to <app>/dist-node/) with plain `node`, as
   * production does, instead of the TypeScript sources through tsx. Default: HELIX_COMPILED=1.
   */
  compiled?: boolean;
  /** Entry files of the three processes (default: apps/api/src/main.ts, apps/worker/src/main.ts, apps/viewer/src/serve.ts, or their compiled files). */
  entries?: Partial<Record<ProcessName, string>>;
  /** How long to wait for the API's /api/health and the viewer port (default 120 s). */
  readyTimeoutMs?: number;
  /** Aborting stops whatever was started so far and makes startStack reject. */
  signal?: AbortSignal;
  /**
   * The cluster's shape (`npm run start:cluster`, docs/scale-out.md): `apis` API processes and `workers`
   * workers (each at least 1), with the viewer, behind nginx on apiPort (the portal) and viewerPort (the
   * viewer host). The processes listen on free ports of 127.0.0.1 and believe X-Forwarded-* from nginx
   * only. Without it: one of each process, on apiPort and viewerPort themselves, no proxy.
   */
  cluster?: { apis: number; workers: number };
  /**
   * A cluster's object storage: 's3' (default; S3_ENDPOINT/S3_BUCKET when set, else the embedded
   * S3-compatible server) or 'local' (STORAGE_DIR, shared by the processes on this machine).
   * Default: HELIX_STORAGE, else 's3'.
   */
  clusterStorage?: 's3' | 'local';
  /** Called when one of the processes exits while the stack is running (not during stop()); it is restarted. */
  onUnexpectedExit?: (exit: ChildExit) => void;
  /** Restarts of crashed processes (default: backoff from 1 s, 5 crashes of one process in 60 s give up). */
  restart?: Pick<SupervisorOptions, 'maxCrashes' | 'windowMs' | 'baseDelayMs' | 'maxDelayMs'>;
}

export type ProcessName = 'api' | 'worker' | 'viewer';
/**
 * A process of the stack: `api`, `worker`, `viewer`; in a cluster `api-1`, `api-2`, `worker-1`...;
 * `stripe-local` when the stack runs it (no STRIPE_SECRET_KEY).
 */
export type InstanceName = ProcessName | `${'api' | 'worker'}-${number}` | 'stripe-local';

export interface Stack {
  apiUrl: string;
  viewerUrl: string;
  databaseUrl: string;
  redisUrl: string;
  smtpUrl: string;
  /** The folder of caught .eml files when the stack's own mail catcher is in use. */
  mailDir?: string;
  /** The environment the API, worker and viewer were started with. */
  env: Record<string, string>;
  /** One line per backing service: what was found or started. */
  services: { postgres: string; redis: string; smtp: string; stripe: string; storage: string };
  /** stripe-local's address when the stack started it (no STRIPE_SECRET_KEY), else undefined. */
  stripeUrl?: string;
  /**
   * Resolves when a process keeps crashing (restart.maxCrashes within restart.windowMs): the portal
   * cannot be kept running. A single crash is restarted (see Supervisor) and does not resolve it.
   */
  exited: Promise<ChildExit>;
  /** The processes running now, by name (a restart replaces one). */
  process(name: InstanceName): ManagedChild | undefined;
  /**
   * A planned restart of ONE process, as a rolling restart does (`api-1`, then `api-2`, ...): SIGTERM and
   * its graceful shutdown (an API drains through its readiness check and `Connection: close`, then
   * finishes its requests; a worker finishes its running jobs), SIGKILL only after `stopTimeoutMs`
   * (default 30 s), then the same process again. Resolves once the new process is ready: an API's
   * GET /api/health/ready answers 200 on its own port; a worker has logged "worker started" (when its
   * LOG_LEVEL shows info lines; otherwise once it runs); the viewer answers on its port.
   */
  restart(
    name: InstanceName,
    options?: { stopTimeoutMs?: number; readyTimeoutMs?: number },
  ): Promise<{ child: ManagedChild; exit: ChildExit; stoppedMs: number; readyMs: number }>;
  /** In a cluster: each API process's own address (behind nginx) by name, and nginx's files. */
  cluster?: {
    apis: Record<string, string>;
    workers: string[];
    nginx: { configFile: string; accessLog: string };
  };
  /** Stops the processes (SIGTERM, then SIGKILL after a timeout) and the services the stack started. */
  stop(): Promise<void>;
}

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

/**
 * The whole portal on one machine: backing services, migrations, seed, optional build, then the API
 * (serving the web app), the worker and the viewer host as child processes. Used by `npm start` and by
 * the end-to-end tests.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const quiet = options.quiet ?? false;
  const log = (message: string) => {
    if (!quiet) console.log(`[stack] ${message}`);
  };
  // Aborted by the caller, or by a failure here (which stops a build still running).
  const failure = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, failure.signal]) : failure.signal;
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
  mkdirSync(dataDir, { recursive: true });
  const compiled = options.compiled ?? process.env.HELIX_COMPILED === '1';
  const { entries, needBuild } = entriesOf(options, compiled);

  const services: Service[] = [];
  const startupFailure = new AbortController();
  let firstExit: ChildExit | undefined;
  let firstExitOutput = '';
  const supervisor = new Supervisor({
    ...options.restart,
    log: (line) => console.error(`[stack] ${line}`),
    onCrash: (exit) => options.onUnexpectedExit?.(exit),
    onStartupExit: (exit, child) => {
      firstExit ??= exit;
      firstExitOutput ||= child.output();
      startupFailure.abort();
    },
  });
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      await supervisor.stop(5000);
      for (const service of services.reverse()) {
        await service
          .stop()
          .catch((error: Error) => console.error(`[stack] stopping a service: ${error.message}`));
      }
    })());

  try {
    const { apiPort, viewerPort, cluster, apiPorts, viewerProcessPort } = await portsOf(options);
    signal.throwIfAborted();

    // The build does not need the services: both run at once.
    const building =
      shouldBuild(options.build, compiled) || (needBuild && options.build !== false)
        ? runBuild(quiet, signal)
        : Promise.resolve();
    building.catch(() => {}); // awaited below; this only keeps an early failure from being "unhandled"

    const { postgres, redis, smtp, s3 } = await startServices(options, Boolean(cluster), services, {
      dataDir,
      quiet,
      log,
    });
    signal.throwIfAborted();

    await prepareDatabase(postgres.url, options.seed !== false, log);
    await building;
    signal.throwIfAborted();

    const env = processEnv(options, {
      apiPort,
      viewerPort,
      apiProcessPort: apiPorts[0]!,
      viewerProcessPort,
      dataDir,
      cluster: Boolean(cluster),
      postgres,
      redis,
      smtp,
      s3,
    });
    // stripe-local (without STRIPE_SECRET_KEY) is one of the supervised processes, started first: the
    // API and the worker get its address and keys.
    const stripe = await resolveStripe({
      env,
      apiUrl: `http://127.0.0.1:${apiPort}`,
      port: options.stripePort,
      dataDir,
      persist: options.stripePersist,
      supervisor,
      quiet,
      readyTimeoutMs: options.readyTimeoutMs,
    });
    services.push(stripe);
    Object.assign(env, stripe.env);
    log(stripe.description);
    if (options.seed !== false) {
      log(`demo models: ${await seedCatalogue(postgres.url, env, dataDir)}`);
    }

    const { apiNames, workerNames } = startProcesses(supervisor, {
      entries,
      env,
      cluster,
      apiPorts,
      quiet,
    });
    const exited = supervisor.gaveUp.then((exit) => {
      console.error('[stack] the portal is not complete any more.');
      return exit;
    });

    const apiUrl = `http://localhost:${apiPort}`;
    const viewerUrl = `http://localhost:${viewerPort}`;
    const waitSignal = AbortSignal.any([signal, startupFailure.signal]);
    const timeoutMs = options.readyTimeoutMs ?? 120_000;
    let nginx: NginxService | undefined;
    try {
      await waitUntilAnswering(supervisor, {
        apiPorts,
        viewerProcessPort,
        cluster: Boolean(cluster),
        timeoutMs,
        signal: waitSignal,
      });
      if (cluster) {
        nginx = await startClusterNginx({
          dataDir,
          env,
          apiPort,
          viewerPort,
          apiPorts,
          viewerProcessPort,
          quiet,
          signal: waitSignal,
        });
        services.push(nginx);
        log(nginx.description);
      }
    } catch (error) {
      if (firstExit) {
        throw new Error(`${describeExit(firstExit, firstExitOutput)}\n(while the stack was starting)`, {
          cause: error,
        });
      }
      throw error;
    }
    supervisor.running();
    log(`API ${apiUrl} and viewer ${viewerUrl} are up`);

    return {
      apiUrl,
      viewerUrl,
      databaseUrl: postgres.url,
      redisUrl: redis.url,
      smtpUrl: smtp.url,
      mailDir: smtp.mailDir,
      env,
      services: {
        postgres: postgres.description,
        redis: redis.description,
        smtp: smtp.description,
        stripe: stripe.description,
        storage: s3?.description ?? `object storage: the folder ${env.STORAGE_DIR}`,
      },
      stripeUrl: stripe.kind === 'embedded' ? stripe.url : undefined,
      // nginx is not restarted: when it exits on its own the portal is unreachable, so the stack stops.
      exited: nginx
        ? Promise.race([
            exited,
            nginx.unexpectedExit.then((exit) => {
              console.error('[stack] nginx exited: the portal is not reachable any more.');
              return exit;
            }),
          ])
        : exited,
      process: (name) => supervisor.current(name),
      restart: restarter(supervisor, {
        env,
        apiNames,
        apiPorts,
        viewerProcessPort,
        timeoutMs,
      }),
      ...(cluster && nginx
        ? {
            cluster: {
              apis: Object.fromEntries(apiNames.map((name, i) => [name, `http://127.0.0.1:${apiPorts[i]}`])),
              workers: workerNames,
              nginx: { configFile: nginx.configFile, accessLog: nginx.accessLog },
            },
          }
        : {}),
      stop,
    };
  } catch (error) {
    failure.abort();
    await stop();
    throw error;
  }
}

/** The three processes' entry files; a compiled start builds first when its output is missing. */
function entriesOf(options: StackOptions, compiled: boolean) {
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
async function portsOf(options: StackOptions) {
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
async function startServices(
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
async function prepareDatabase(url: string, withSeed: boolean, log: (message: string) => void) {
  const applied = await migrate(url);
  log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema is up to date');
  if (withSeed) {
    const { seed } = await import('../../../prisma/seed.ts');
    const summary = await seed(url);
    log(`seed: ${summary}`);
  }
}

/** Starts the API, worker and viewer processes under the supervisor (a cluster: N APIs and workers). */
function startProcesses(
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
function processEnv(
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
function restarter(
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
async function waitUntilAnswering(
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
function startClusterNginx(at: {
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

const BUILDS = [
  { output: 'apps/web/dist/index.html', sources: ['apps/web', 'packages/shared/src'] },
  // The web app's server bundle (the drawn home page), written by the same build.
  { output: 'apps/web/dist-server/home-page.server.js', sources: ['apps/web', 'packages/shared/src'] },
  { output: 'apps/viewer/dist/index.html', sources: ['apps/viewer', 'packages/shared/src'] },
];
/** The compiled processes (checked only when they are what runs). */
const SERVER_SOURCES = ['packages/shared/src', 'packages/server/src', 'packages/stack/src', 'prisma'];
const COMPILED_BUILDS = [
  { output: 'apps/api/dist-node/main.js', sources: ['apps/api/src', ...SERVER_SOURCES] },
  { output: 'apps/worker/dist-node/main.js', sources: ['apps/worker/src', ...SERVER_SOURCES] },
  { output: 'apps/viewer/dist-node/serve.js', sources: ['apps/viewer/src', 'packages/shared/src'] },
];
// Build outputs (sourcemaps/ is where the web build moves its maps), never sources.
const IGNORED = new Set([
  'node_modules',
  'dist',
  'dist-server',
  'dist-node',
  'sourcemaps',
  '.vite',
  'test-results',
]);

function shouldBuild(build: StackOptions['build'], compiled: boolean): boolean {
  const builds = compiled ? [...BUILDS, ...COMPILED_BUILDS] : BUILDS;
  if (build === 'auto') return builds.some((b) => isStale(b.output, b.sources));
  return build === true;
}

function isStale(output: string, sources: string[]): boolean {
  const outputPath = path.join(ROOT, output);
  if (!existsSync(outputPath)) return true;
  const built = statSync(outputPath).mtimeMs;
  return sources.some((source) => newestMtime(path.join(ROOT, source)) > built);
}

function newestMtime(target: string): number {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (IGNORED.has(entry.name) || entry.name.endsWith('.test.ts') || entry.name.endsWith('.test.tsx'))
      continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry.name)));
  }
  return newest;
}

async function runBuild(quiet: boolean, signal?: AbortSignal): Promise<void> {
  const npmCli = process.env.npm_execpath;
  const [command, args] =
    npmCli && /npm-cli\.c?js$/.test(npmCli)
      ? [process.execPath, [npmCli, 'run', 'build']]
      : ['npm', ['run', 'build']];
  if (!quiet)
    console.log('[stack] building the web app, the viewer and the server processes (npm run build)');
  const child = new ManagedChild({ name: 'build', command, args: args as string[], quiet });
  const onAbort = () => void child.stop(2000);
  signal?.addEventListener('abort', onAbort, { once: true });
  const exit = await child.exited;
  signal?.removeEventListener('abort', onAbort);
  if (exit.code !== 0) throw new Error(`the build failed: ${describeExit(exit, child.output())}`);
}

/**
 * The demo biology models (packages/demo-content) in the catalogue, stored where the API will read
 * them: the storage the processes' environment configures (the local folder or S3).
 */
async function seedCatalogue(
  databaseUrl: string,
  env: Record<string, string>,
  dataDir: string,
): Promise<string> {
  const { parseConfig } = await import('@helix/server/config');
  const { createDb } = await import('@helix/server/db');
  const { createStorage } = await import('@helix/server/storage/create-storage');
  const { seedDemoModels } = await import('@helix/server/models/seed-demo-models');
  const db = createDb(databaseUrl);
  try {
    const storage = createStorage(parseConfig(env));
    const { created, existing } = await seedDemoModels(db, storage, path.join(dataDir, 'demo-models'));
    return created.length ? `added ${created.join(', ')}` : `${existing.length} already in the catalogue`;
  } finally {
    await db.$disconnect();
  }
}
