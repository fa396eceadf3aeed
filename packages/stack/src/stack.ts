import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_DATA_DIR, ROOT } from './paths.ts';
import type { NginxService } from './nginx.ts';
import { describeExit, ManagedChild, type ChildExit } from './services/process.ts';
import { Supervisor } from './supervisor.ts';
import { resolveStripe } from './services/stripe.ts';
import type { Service } from './services/types.ts';
import type { Stack, StackOptions } from './stack-types.ts';
import {
  entriesOf,
  portsOf,
  prepareDatabase,
  processEnv,
  restarter,
  startClusterNginx,
  startProcesses,
  startServices,
  waitUntilAnswering,
} from './stack-steps.ts';

export type { InstanceName, ProcessName, Stack, StackOptions } from './stack-types.ts';
export { COMPILED_ENTRIES, processCommand } from './stack-steps.ts';

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
const BUILDS = [
  { output: 'apps/web/dist/index.html', sources: ['apps/web', 'packages/shared/src'] },
  // The web app's server bundle (the server-rendered pages), written by the same build.
  { output: 'apps/web/dist-server/render-page.server.js', sources: ['apps/web', 'packages/shared/src'] },
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
