import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findNginx } from '@helix/stack/nginx';
import { printFigures } from './support/invite-faults.ts';
import {
  rollApisUnderLoad,
  rollWorkersMidInvite,
  startRollingCluster,
  summarise,
  type RollingCluster,
} from './support/rolling-restart.ts';

/**
 * A rolling restart of the cluster (`npm run start:cluster`'s shape: two API processes and two workers
 * behind nginx; the TypeScript sources, no build needed): the API processes one at a time under light
 * paced embed loads through nginx, then the workers one at a time mid bulk invite. The bigger run and
 * its figures: `npm run bench:rolling` (README, "Rolling restart"). Only its own processes are
 * stopped: it uses a database and a Redis prefix of its own on the machine's PostgreSQL and Redis.
 */
const nginx = findNginx();
// At the SMTP sink's 2 s per recipient, two workers' 20 pooled connections send about 10 e-mails/s: 400
// rows take about 40 s, long enough that the second worker restarts mid-invite even when a restart
// takes 20 s on a loaded machine.
const ROWS = 400;
let cluster: RollingCluster;

beforeAll(async () => {
  if (nginx) cluster = await startRollingCluster({ compiled: false, inviteRows: ROWS, delayRcptMs: 2000 });
}, 180_000);
afterAll(async () => {
  await cluster?.close();
}, 60_000);

describe.skipIf(!nginx)('rolling restart of the cluster', () => {
  it('restarts the API processes one at a time under paced embed loads with 0 failed requests and exact views', async () => {
    const result = await rollApisUnderLoad(cluster, { perSecond: 10, warmMs: 1000 });
    const failed = result.samples.filter((s) => s.status !== 200);
    const during = summarise(result.during);
    printFigures('API processes restarted one at a time (10 embed page loads/s)', {
      requests: result.samples.length,
      failed: failed.length,
      'p50 / p99 during restarts (ms)': `${during.p50} / ${during.p99}`,
      restarts: result.restarts.map((r) => `${r.name} ${r.stoppedMs}+${r.readyMs}+${r.backMs} ms`).join(', '),
      'views / viewer loads': `${result.views} / ${result.viewerLoads}`,
    });
    expect(result.restarts.map((r) => r.drainSeenMs >= 0)).toEqual([true, true]);
    expect(failed).toEqual([]);
    expect(result.views).toBe(result.viewerLoads);
  }, 120_000);

  it('restarts the workers one at a time mid bulk invite: every e-mail exactly once', async () => {
    const result = await rollWorkersMidInvite(cluster, { rows: ROWS, timeoutMs: 120_000 });
    printFigures(`workers restarted one at a time mid bulk invite (${ROWS} rows)`, {
      expected: result.expected,
      delivered: result.delivered,
      doubled: result.doubled,
      lost: result.lost,
      restarts: result.restarts.map((r) => `${r.name} at ${r.mailsAt} e-mails`).join(', '),
      'time (s)': result.seconds.toFixed(1),
    });
    expect(result.restarts.map((r) => r.exitCode)).toEqual([0, 0]);
    // Both restarts happened mid-invite (e-mails still to send).
    expect(result.restarts.map((r) => r.mailsAt < ROWS)).toEqual([true, true]);
    expect({ lost: result.lost, doubled: result.doubled }).toEqual({ lost: 0, doubled: 0 });
    expect(result.batch).toMatchObject({ status: 'done', processed: ROWS, failed: 0 });
  }, 180_000);
});
