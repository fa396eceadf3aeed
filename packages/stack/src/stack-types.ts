/** What startStack (stack.ts) takes and answers: its options, the processes' names, the running stack. */
import type { SupervisorOptions } from './supervisor.ts';
import type { ChildExit, ManagedChild } from './services/process.ts';

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
