import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { OAuth2Server } from 'oauth2-mock-server';
import type { TestProject } from 'vitest/node';
import { startStack } from '../../../../packages/stack/src/stack.ts';
import { createDatabase, dropDatabase } from '../../../../packages/stack/src/test-db.ts';
import { freePort } from '../../../../packages/stack/src/services/net.ts';
import { startMailServer } from './mail-server.ts';
import { GOOGLE_USER } from './google-user.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    apiUrl: string;
    viewerUrl: string;
    mailDir: string;
    databaseUrl: string;
    /** How the API, worker and viewer were started (the compiled output with plain node). */
    processCommands: Record<'api' | 'worker' | 'viewer', string[]>;
    /** The run's stripe-local (the portal's Stripe), its secret key and Stripe.js stand-in. */
    stripeUrl: string;
    stripeSecretKey: string;
    stripeJsUrl: string;
    /**
     * HELIX_E2E_CLUSTER=1 (`npm run test:e2e:cluster`): the portal is the cluster (two API processes and
     * two workers behind nginx); each API process's own address by name, and each worker's metrics
     * address with the token that reads it. Empty without the cluster.
     */
    clusterApis: Record<string, string>;
    /** Each cluster API process's pid at the start, by the same names (a test stops one: SIGTERM). */
    clusterApiPids: Record<string, number>;
    workerMetrics: string[];
    metricsToken: string;
  }
}

/** The cluster's workers serve metrics on METRICS_PORT + their index: two free ports in a row. */
const workerMetricsPorts = () => freePort('127.0.0.1', 2);

/** `npm run test:e2e:cluster`: the same browser flows against the cluster's shape. */
const CLUSTER = process.env.HELIX_E2E_CLUSTER === '1';

/** One portal for the whole browser run: fresh database, its own Redis prefix, a real SMTP server, an OAuth mock. */
export default async function setup(project: TestProject) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'helix-e2e-'));
  const dbName = `helix_e2e_${randomBytes(4).toString('hex')}`;
  const databaseUrl = await createDatabase(dbName);
  const mail = await startMailServer(path.join(tmp, 'mail'));

  const oauth = new OAuth2Server();
  await oauth.issuer.keys.generate('RS256');
  oauth.service.on('beforeUserinfo', (userInfo: { body: Record<string, unknown> }) => {
    userInfo.body = { ...GOOGLE_USER, email_verified: true, given_name: 'Ada', family_name: 'Google' };
  });
  await oauth.start(0, '127.0.0.1');
  const issuer = oauth.issuer.url!;
  const metricsToken = randomBytes(16).toString('hex');
  const metricsPort = CLUSTER ? await workerMetricsPorts() : 0;

  const stack = await startStack({
    databaseUrl,
    redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    smtpUrl: mail.url,
    build: false,
    // What production runs (the Procfile): the processes `npm run build` compiled, with plain node.
    compiled: true,
    quiet: !process.env.E2E_VERBOSE,
    dataDir: path.join(tmp, 'data'),
    stripePort: 0,
    stripePersist: false,
    ...(CLUSTER ? { cluster: { apis: 2, workers: 2 } } : {}),
    env: {
      // The cluster's workers serve their metrics (each on METRICS_PORT + its index).
      ...(CLUSTER ? { METRICS_TOKEN: metricsToken, METRICS_PORT: String(metricsPort) } : {}),
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      REDIS_PREFIX: `helix-e2e-${randomBytes(3).toString('hex')}`,
      RATE_LIMIT_MAX: '1000',
      GOOGLE_CLIENT_ID: 'helix-e2e',
      GOOGLE_CLIENT_SECRET: 'helix-e2e-secret',
      GOOGLE_AUTHORIZATION_URL: `${issuer}/authorize`,
      GOOGLE_TOKEN_URL: `${issuer}/token`,
      GOOGLE_USERINFO_URL: `${issuer}/userinfo`,
    },
  });

  project.provide('apiUrl', stack.apiUrl);
  project.provide('viewerUrl', stack.viewerUrl);
  const spawnArgs = (name: 'api' | 'api-1' | 'worker' | 'worker-1' | 'viewer') =>
    stack.process(name)?.process.spawnargs ?? [];
  project.provide('processCommands', {
    api: spawnArgs(CLUSTER ? 'api-1' : 'api'),
    worker: spawnArgs(CLUSTER ? 'worker-1' : 'worker'),
    viewer: spawnArgs('viewer'),
  });
  project.provide('clusterApis', stack.cluster?.apis ?? {});
  project.provide(
    'clusterApiPids',
    Object.fromEntries(
      Object.keys(stack.cluster?.apis ?? {}).map((name) => [
        name,
        stack.process(name as `api-${number}`)?.process.pid ?? 0,
      ]),
    ),
  );
  project.provide(
    'workerMetrics',
    (stack.cluster?.workers ?? []).map((_, i) => `http://127.0.0.1:${metricsPort + i}/metrics`),
  );
  project.provide('metricsToken', metricsToken);
  project.provide('mailDir', path.join(tmp, 'mail'));
  project.provide('databaseUrl', databaseUrl);
  project.provide('stripeUrl', stack.env.STRIPE_API_URL ?? '');
  project.provide('stripeSecretKey', stack.env.STRIPE_SECRET_KEY ?? '');
  project.provide('stripeJsUrl', stack.env.STRIPE_JS_URL ?? '');

  return async () => {
    await stack.stop();
    await oauth.stop();
    await mail.stop();
    await dropDatabase(dbName).catch(() => {});
    rmSync(tmp, { recursive: true, force: true });
  };
}
