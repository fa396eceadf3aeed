import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../paths.ts';
import { Supervisor } from '../supervisor.ts';
import { portIsFree } from './net.ts';
import { tsxArgs, type ChildSpec } from './process.ts';
import type { Service } from './types.ts';

export interface StripeService extends Service {
  /** The variables the API and worker need (none when real Stripe or nothing is configured). */
  env: Record<string, string>;
}

export interface StripeServiceOptions {
  /** The environment the processes will get: a STRIPE_SECRET_KEY there means real Stripe. */
  env: Record<string, string | undefined>;
  /** Where the API answers webhooks: `<apiUrl>/api/stripe/webhook`. */
  apiUrl: string;
  /** stripe-local's port: default STRIPE_LOCAL_PORT, else 12111; 0 = one it binds itself (kept across its restarts). */
  port?: number;
  dataDir: string;
  /**
   * Keep stripe-local's state in <dataDir>/stripe-local.json across starts of the stack (default true).
   * false: a state file of this start only (<dataDir>/stripe-local.run.json, emptied at start), still
   * kept across restarts of the stripe-local process.
   */
  persist?: boolean;
  /** The stack's supervisor, which restarts stripe-local like its other processes (default: one of its own). */
  supervisor?: Supervisor;
  /** Hide stripe-local's output (it still appears in error messages). */
  quiet?: boolean;
  /** How long to wait for it to listen (default 60 s). */
  readyTimeoutMs?: number;
}

export const STRIPE_WEBHOOK_PATH = '/api/stripe/webhook';
export const STRIPE_LOCAL_PROCESS = 'stripe-local';
/** stripe-local's own default port (packages/stripe-local DEFAULT_PORT). */
const DEFAULT_PORT = 12111;
const STRIPE_LOCAL_MAIN = path.join(ROOT, 'packages/stripe-local/src/main.ts');

/**
 * Stripe for the local stack: real Stripe when STRIPE_SECRET_KEY is set; otherwise (never in production)
 * packages/stripe-local as a supervised child process named `stripe-local` (restarted with a backoff
 * like the API, worker and viewer, on the same port, with the same keys and webhook secret, its state
 * kept in a file), with the API's webhook endpoint registered and its keys, URL and Stripe.js stand-in
 * handed to the API and the worker.
 */
export async function resolveStripe(options: StripeServiceOptions): Promise<StripeService> {
  const { env } = options;
  if (env.STRIPE_SECRET_KEY) {
    const mode = env.STRIPE_SECRET_KEY.startsWith('sk_live_') ? 'live mode' : 'test mode';
    return {
      url: env.STRIPE_API_URL ?? 'https://api.stripe.com',
      kind: 'external',
      description: `Stripe: ${env.STRIPE_API_URL ?? 'api.stripe.com'} (STRIPE_SECRET_KEY, ${mode})`,
      env: {},
      stop: async () => {},
    };
  }
  if (env.NODE_ENV === 'production') {
    return {
      url: '',
      kind: 'external',
      description: 'Stripe: not configured (STRIPE_SECRET_KEY unset): card payment is off',
      env: {},
      stop: async () => {},
    };
  }
  const port = options.port ?? (env.STRIPE_LOCAL_PORT ? Number(env.STRIPE_LOCAL_PORT) : DEFAULT_PORT);
  if (port && !(await portIsFree(port))) {
    throw new Error(
      `port ${port} (stripe-local) is already in use (is another Helix running?). ` +
        'Stop it, choose another port with STRIPE_LOCAL_PORT=<port>, or set STRIPE_SECRET_KEY to use Stripe test mode.',
    );
  }
  let snapshotFile = path.join(options.dataDir, 'stripe-local.json');
  if (options.persist === false) {
    snapshotFile = path.join(options.dataDir, 'stripe-local.run.json');
    for (const file of [snapshotFile, `${snapshotFile}.journal`]) rmSync(file, { force: true });
  }
  const own = options.supervisor ? undefined : new Supervisor();
  const supervisor = options.supervisor ?? own!;
  const webhookSecret = `whsec_${randomBytes(24).toString('hex')}`;
  const { command, args } = tsxArgs(STRIPE_LOCAL_MAIN);
  const spec = (listenOn: number): ChildSpec => ({
    name: STRIPE_LOCAL_PROCESS,
    command,
    args,
    quiet: options.quiet,
    env: {
      ...stripeLocalEnv(),
      NODE_ENV: env.NODE_ENV ?? 'development',
      STRIPE_LOCAL_PORT: String(listenOn),
      STRIPE_LOCAL_SNAPSHOT: snapshotFile,
      STRIPE_LOCAL_WEBHOOK_URL: `${options.apiUrl}${STRIPE_WEBHOOK_PATH}`,
      STRIPE_LOCAL_WEBHOOK_SECRET: webhookSecret,
    },
  });
  const child = supervisor.start(spec(port));
  // Its start prints the address, then the variables for the API (the webhook secret's line last).
  let printed: Record<string, string>;
  try {
    await child.waitForLine(/^\s*STRIPE_WEBHOOK_SECRET=/, options.readyTimeoutMs ?? 60_000);
    printed = Object.fromEntries(
      [...child.output().matchAll(/^\s*(STRIPE_[A-Z_]+)=(\S+)/gm)].map((m) => [m[1]!, m[2]!]),
    );
  } catch (error) {
    await own?.stop();
    await child.stop(2000);
    throw error;
  }
  const url = printed.STRIPE_API_URL!;
  // Port 0: the one it bound is where every restart listens (the API and the browsers keep its address).
  if (!port) supervisor.respec(STRIPE_LOCAL_PROCESS, spec(Number(new URL(url).port)));
  own?.running();
  return {
    url,
    kind: 'embedded',
    description: `Stripe: stripe-local ${url} (its own process; test cards, 3-D Secure, test clocks; no STRIPE_SECRET_KEY)`,
    env: {
      STRIPE_SECRET_KEY: printed.STRIPE_SECRET_KEY!,
      STRIPE_PUBLISHABLE_KEY: printed.STRIPE_PUBLISHABLE_KEY!,
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_URL: url,
      STRIPE_JS_URL: printed.STRIPE_JS_URL!,
    },
    stop: async () => {
      await (own ? own.stop() : supervisor.current(STRIPE_LOCAL_PROCESS)?.stop());
    },
  };
}

/** The stack's environment for stripe-local: its own STRIPE_LOCAL_* settings, not the API's STRIPE_* nor the test runner's. */
function stripeLocalEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if ((key.startsWith('STRIPE_') && !key.startsWith('STRIPE_LOCAL_')) || key.startsWith('VITEST')) continue;
    env[key] = value;
  }
  return env;
}
