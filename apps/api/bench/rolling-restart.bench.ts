/**
 * `npm run bench:rolling`: a rolling restart of the cluster with zero failures. Starts
 * `npm run start:cluster`'s shape (two API processes, two workers, the viewer, nginx; the compiled
 * processes, built first when missing or stale) on a fresh database, then:
 *
 *  (a) embed page loads through nginx at BENCH_LOADS_PER_SECOND (default 30; each load = the embed
 *      detail call + the viewer's model lookup with the minted token, which counts one view), and the
 *      API processes restarted one at a time (SIGTERM; the process drains: readiness 503 `draining`,
 *      `Connection: close`; it finishes its requests and exits; started again; ready; nginx sends it
 *      requests again before the next one);
 *  (b) a bulk invite of BENCH_INVITE_ROWS (default 1,000) rows through nginx, and the workers restarted
 *      one at a time at a third and two thirds of the e-mails (graceful: each finishes the rows it is
 *      sending), mails caught by an SMTP sink.
 *
 * Prints requests sent and failed, p50/p99 latency during the restarts, e-mails expected / delivered /
 * doubled / lost, views recorded against viewer loads, and the load average. Exit code 1 when a
 * request failed, an e-mail was lost or doubled, or the views are not exact. Needs nginx
 * (/usr/sbin/nginx), PostgreSQL and Redis.
 */
import os from 'node:os';
import { findNginx } from '@helix/stack/nginx';
import {
  rollApisUnderLoad,
  rollWorkersMidInvite,
  startRollingCluster,
  summarise,
} from '../faults/support/rolling-restart.ts';

const PER_SECOND = Number(process.env.BENCH_LOADS_PER_SECOND ?? 30);
const ROWS = Number(process.env.BENCH_INVITE_ROWS ?? 1000);

if (!findNginx()) throw new Error('nginx is missing (apt-get install nginx)');
const t0 = performance.now();
const cluster = await startRollingCluster({
  compiled: true,
  build: 'auto',
  inviteRows: ROWS,
  delayRcptMs: 10,
});
console.log(`cluster started in ${((performance.now() - t0) / 1000).toFixed(1)} s (compiled processes)`);
let failedChecks: string[] = [];
try {
  const apis = await rollApisUnderLoad(cluster, { perSecond: PER_SECOND, warmMs: 3000 });
  const all = summarise(apis.samples);
  const during = summarise(apis.during);
  const failed = apis.samples.filter((s) => s.status !== 200);
  const loadA = os.loadavg()[0]!;
  console.log(
    `\n(a) API processes restarted one at a time under ${PER_SECOND} embed page loads/s through nginx`,
  );
  for (const r of apis.restarts) {
    console.log(
      `  ${r.name}: draining seen on readiness after ${r.drainSeenMs} ms; stopped after ${r.stoppedMs} ms; ` +
        `ready ${r.readyMs} ms later; nginx used it again ${r.backMs} ms after that`,
    );
  }
  const details = apis.samples.filter((x) => x.kind === 'detail');
  const seconds = (details.at(-1)!.at - details[0]!.at) / 1000;
  console.log(
    `  page loads: ${details.length} in ${seconds.toFixed(1)} s (${(details.length / seconds).toFixed(1)}/s achieved; ` +
      `a load started late when the load generator's own process was starved of CPU)`,
  );
  console.log(`  requests sent: ${all.requests} (${all.statuses}); failed: ${failed.length}`);
  console.log(
    `  latency during the restarts: p50 ${during.p50} ms, p99 ${during.p99} ms, max ${during.max} ms (${during.requests} requests)`,
  );
  console.log(`  latency over the whole run: p50 ${all.p50} ms, p99 ${all.p99} ms`);
  console.log(
    `  views recorded ${apis.views} vs viewer loads ${apis.viewerLoads}: ${apis.views === apis.viewerLoads ? 'exact' : 'NOT exact'}`,
  );
  console.log(`  load average (1 min): ${loadA.toFixed(1)} on ${os.cpus().length} cores`);

  const workers = await rollWorkersMidInvite(cluster, { rows: ROWS, timeoutMs: 300_000 });
  console.log(`\n(b) workers restarted one at a time mid bulk invite of ${workers.rows} rows`);
  for (const r of workers.restarts) {
    console.log(
      `  ${r.name}: restarted at ${r.mailsAt} e-mails; stopped (exit ${r.exitCode}) after ${r.stoppedMs} ms; ready ${r.readyMs} ms later`,
    );
  }
  console.log(
    `  e-mails expected ${workers.expected}, delivered ${workers.delivered}, doubled ${workers.doubled}, lost ${workers.lost}; ` +
      `batch ${workers.batch.status} (${workers.batch.processed} sent, ${workers.batch.failed} failed) in ${workers.seconds.toFixed(1)} s`,
  );
  console.log(`  load average (1 min): ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);

  failedChecks = [
    ...(failed.length ? [`${failed.length} failed requests`] : []),
    ...(apis.views !== apis.viewerLoads ? ['views not exact'] : []),
    ...(workers.lost ? [`${workers.lost} e-mails lost`] : []),
    ...(workers.doubled ? [`${workers.doubled} e-mails doubled`] : []),
    ...(workers.restarts.some((r) => r.exitCode !== 0) ? ['a worker did not stop cleanly'] : []),
  ];
  console.log(
    failedChecks.length
      ? `\nFAIL: ${failedChecks.join(', ')}`
      : '\nPASS: 0 failed requests, 0 e-mails lost or doubled, views exact',
  );
} finally {
  await cluster.close();
}
process.exit(failedChecks.length ? 1 : 0);
