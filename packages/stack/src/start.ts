/**
 * `npm start` (after packages/stack/bin/start.mjs has installed dependencies and generated the Prisma
 * client): the whole portal on this machine. Ctrl-C stops everything it started.
 *
 * `npm run start:cluster` (`npm start -- --cluster`, or HELIX_CLUSTER=1): the deployed shape, two API
 * processes and two workers with the viewer behind nginx (HELIX_APIS / HELIX_WORKERS change the counts).
 */
import { DEMO_ACCOUNTS } from '../../../prisma/seed/demo-accounts.ts';
import { loadDotEnv } from './paths.ts';
import { displayPath } from './services/types.ts';
import { startStack, type Stack } from './stack.ts';

loadDotEnv();

// Output may outlive its reader (the terminal or npm gone): never crash on a closed pipe.
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});

const abort = new AbortController();
let received: string | undefined;
let requestStop: (reason: string) => void = () => {};
const signalled = new Promise<string>((resolve) => {
  requestStop = (reason) => {
    if (received) return; // the terminal and start.mjs may both deliver a Ctrl-C
    received = reason;
    console.log(`\n[stack] ${reason}: stopping everything that was started`);
    abort.abort();
    resolve(reason);
  };
});
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => requestStop(sig));
// When the process that started this one goes away without a signal reaching us, stop too; likewise
// when HELIX_STOP_WITH_PID names a process that has ended (a script running `npm start` in the
// background: npm outlives a SIGKILLed script). The children die with us in any case (orphan-guard.ts).
const parent = process.ppid;
const stopWith = Number(process.env.HELIX_STOP_WITH_PID) || undefined;
const ended = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
};
setInterval(() => {
  if (process.ppid !== parent) requestStop('the parent process ended');
  else if (stopWith && ended(stopWith)) requestStop(`process ${stopWith} (HELIX_STOP_WITH_PID) ended`);
}, 1000).unref();

const clustered = process.argv.includes('--cluster') || /^(1|true)$/.test(process.env.HELIX_CLUSTER ?? '');
const count = (value: string | undefined) => Math.max(1, Number(value ?? 2) || 2);

const BUILD_MODES: Record<string, boolean | 'auto'> = { always: true, auto: 'auto', never: false };

let stack: Stack;
try {
  stack = await startStack({
    apiPort: Number(process.env.PORT ?? 3000),
    viewerPort: Number(process.env.VIEWER_PORT ?? 3001),
    build: BUILD_MODES[process.env.HELIX_BUILD ?? 'auto'] ?? 'auto',
    seed: true,
    signal: abort.signal,
    // Where the local services, caught mail and stored files live (default <repo>/.data).
    ...(process.env.HELIX_DATA_DIR ? { dataDir: process.env.HELIX_DATA_DIR } : {}),
    ...(clustered
      ? { cluster: { apis: count(process.env.HELIX_APIS), workers: count(process.env.HELIX_WORKERS) } }
      : {}),
  });
} catch (error) {
  if (received) process.exit(0);
  console.error(`\n[stack] Helix could not start: ${(error as Error).message}`);
  process.exit(1);
}

const mail = stack.mailDir
  ? `${stack.apiUrl}/dev/mail  (the files: ${displayPath(stack.mailDir)}/*.eml)`
  : `sent to SMTP_URL (${stack.services.smtp})`;
const width = (key: 'email' | 'password') => Math.max(...DEMO_ACCOUNTS.map((a) => a[key].length));
console.log(`
  Helix is running.

  Portal       ${stack.apiUrl}${stack.cluster ? '  (nginx)' : ''}
  Viewer host  ${stack.viewerUrl}${stack.cluster ? '  (nginx)' : ''}${clusterLines(stack)}
  Caught mail  ${mail}
  PostgreSQL   ${stack.services.postgres}
  Redis        ${stack.services.redis}
  Storage      ${stack.services.storage}
  ${stack.stripeUrl ? `Stripe       ${stack.stripeUrl}  (stripe-local: card 4242 4242 4242 4242, 3-D Secure 4000 0025 0000 3155)` : stack.services.stripe}

  Demo logins (tenant, e-mail, password):
${DEMO_ACCOUNTS.map((a) => `    ${a.tenant.padEnd(9)} ${a.email.padEnd(width('email'))}  ${a.password.padEnd(width('password'))}  ${a.name}`).join('\n')}

  Press Ctrl-C to stop.
`);

function clusterLines(stack: Stack): string {
  if (!stack.cluster) return '';
  const { apis, workers, nginx } = stack.cluster;
  return `
  API processes ${Object.entries(apis)
    .map(([name, url]) => `${name} ${url}`)
    .join(', ')}
  Workers      ${workers.join(', ')}
  nginx        ${displayPath(nginx.configFile)}  (access log ${displayPath(nginx.accessLog)})
  Storage      ${stack.env.S3_BUCKET ? `S3 bucket ${stack.env.S3_BUCKET} at ${stack.env.S3_ENDPOINT}` : `${displayPath(stack.env.STORAGE_DIR ?? '')} (one folder shared by every process)`}`;
}

// A crashed process is restarted (stack.ts, Supervisor); only one that keeps crashing ends the portal.
const outcome = await Promise.race([signalled, stack.exited]);
if (typeof outcome !== 'string') {
  console.error(`[stack] stopping the rest because ${outcome.name} keeps crashing.`);
}
await stack.stop();
console.log('[stack] stopped.');
process.exit(typeof outcome === 'string' ? 0 : 1);
