import { loadavg } from 'node:os';
import { BulkInviteBatchView, BulkInviteStarted, INVITE_LIMITS } from '@helix/shared/schemas/invite';
import type { startMailSink } from '../../test/mail-sink.ts';
import { cpuSecondsOf } from './cpu-shares.ts';

/**
 * One measured bulk invite, shared by apps/api/bench/invites.bench.ts (one API, one worker) and
 * apps/api/bench/cluster.bench.ts (through nginx, two API processes, two workers): `rows` rows posted to
 * POST <base>/user/bulk-invite as an owner would, the progress followed with GET /user/bulk-invite/:id
 * as the page does, until the batch is done and every e-mail arrived at the SMTP sink. Answers the
 * figures; print them with printBulkInvite.
 */
export interface BulkInviteRun {
  rows: number;
  /** Requests posted (one per INVITE_LIMITS.rows rows). */
  requests: number;
  acceptedSeconds: number;
  seconds: number;
  received: number;
  missing: number;
  doubled: number;
  exactlyOnce: boolean;
  updates: Array<{ seconds: number; sent: number }>;
  sent: number;
  failed: number;
  /** CPU seconds of the given sender processes (the workers) during the run; NaN when unknown. */
  workerCpu: number;
  load: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runBulkInvite(options: {
  /** `<api>/api/t/<prefix>` */
  base: string;
  /** The owner's session (bearer token). */
  session: string;
  rows: number;
  mail: Awaited<ReturnType<typeof startMailSink>>;
  /** Distinguishes the addresses of several runs against one sink. */
  tag: string;
  /** The sending processes (their CPU time is reported). */
  workerPids?: () => Array<number | undefined>;
  timeoutMs?: number;
}): Promise<BulkInviteRun> {
  const { base, rows: count, mail } = options;
  const headers = { Authorization: `Bearer ${options.session}`, 'Content-Type': 'application/json' };
  const rows = Array.from({ length: count }, (_, i) => ({
    name: `Invitee ${i}`,
    email: `invitee-${options.tag}-${i}@bench.test`,
    note: 'Welcome to the course',
  }));
  const before = mail.mails.length;
  const load = loadavg()[0]!;
  const cpu = (): number => {
    const pids: Array<number | undefined> = options.workerPids?.() ?? [];
    return pids.reduce<number>((sum, pid) => sum + (pid === undefined ? NaN : cpuSecondsOf(pid)), 0);
  };
  const cpuBefore = options.workerPids ? cpu() : NaN;
  const started = performance.now();
  // One request carries at most INVITE_LIMITS.rows rows: a larger invite is several requests, posted
  // back to back (as an owner uploading several files would), all followed to the end.
  const perRequest = Math.min(count, INVITE_LIMITS.rows);
  const batchIds: number[] = [];
  for (let from = 0; from < count; from += perRequest) {
    const res = await fetch(`${base}/user/bulk-invite`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ users: rows.slice(from, from + perRequest) }),
    });
    if (res.status !== 202) throw new Error(`bulk invite answered ${res.status}: ${await res.text()}`);
    batchIds.push(BulkInviteStarted.parse(await res.json()).batchId);
  }
  const acceptedSeconds = (performance.now() - started) / 1000;

  const updates: Array<{ seconds: number; sent: number }> = [];
  const timeoutMs = options.timeoutMs ?? 300_000;
  let sent = 0;
  let failed = 0;
  for (;;) {
    const views = await Promise.all(
      batchIds.map(async (id) => {
        const poll = await fetch(`${base}/user/bulk-invite/${id}`, { headers });
        return BulkInviteBatchView.parse(await poll.json());
      }),
    );
    sent = views.reduce((sum, v) => sum + v.sent, 0);
    failed = views.reduce((sum, v) => sum + v.failed, 0);
    const last = updates.at(-1);
    if (!last || last.sent !== sent) {
      updates.push({ seconds: (performance.now() - started) / 1000, sent });
    }
    if (views.every((v) => v.status === 'done')) break;
    if (performance.now() - started > timeoutMs) throw new Error(`no end after ${timeoutMs / 1000} s`);
    await sleep(500);
  }
  await mail.waitFor(before + count, 10_000).catch(() => undefined);
  const seconds = (performance.now() - started) / 1000;
  const workerCpu = cpu() - cpuBefore;

  const counts = new Map<string, number>();
  for (const m of mail.mails.slice(before)) {
    for (const to of m.to) counts.set(to, (counts.get(to) ?? 0) + 1);
  }
  const missing = rows.filter((r) => (counts.get(r.email) ?? 0) === 0).length;
  const doubled = rows.filter((r) => (counts.get(r.email) ?? 0) > 1).length;
  const received = mail.mails.length - before;
  return {
    rows: count,
    acceptedSeconds,
    seconds,
    received,
    missing,
    doubled,
    exactlyOnce: missing === 0 && doubled === 0 && received === count,
    updates,
    sent,
    failed,
    requests: batchIds.length,
    workerCpu,
    load,
  };
}

/** The figures of a run, as bench:invites has always printed them. */
export function printBulkInvite(run: BulkInviteRun, targetSeconds: number, indent = '  ') {
  const every = Math.max(1, Math.ceil(run.updates.length / 40));
  console.log(
    `${indent}${run.requests === 1 ? 'request' : `${run.requests} requests`} accepted in ${run.acceptedSeconds.toFixed(2)} s`,
  );
  console.log(`${indent}${run.received} e-mails received, total ${run.seconds.toFixed(1)} s`);
  console.log(`${indent}${(run.rows / run.seconds).toFixed(0)} e-mails per second`);
  console.log(
    `${indent}${run.updates.length} progress updates seen (every 0.5 s poll that changed${every > 1 ? `; every ${every}th shown` : ''}):`,
  );
  console.log(
    `${indent}  ${run.updates
      .filter((_, i) => i % every === 0 || i === run.updates.length - 1)
      .map((u) => `${u.seconds.toFixed(1)}s:${u.sent}`)
      .join(' ')}`,
  );
  console.log(`${indent}batch${run.requests === 1 ? '' : 'es'}: sent ${run.sent}, failed ${run.failed}`);
  console.log(
    `${indent}each address exactly one e-mail: ${run.exactlyOnce ? 'PASS' : 'FAIL'} (missing ${run.missing}, doubled ${run.doubled})`,
  );
  console.log(`${indent}target <= ${targetSeconds} s: ${run.seconds <= targetSeconds ? 'met' : 'MISSED'}`);
  if (!Number.isNaN(run.workerCpu)) {
    console.log(
      `${indent}CPU: worker(s) ${run.workerCpu.toFixed(1)} s (${((run.workerCpu / run.rows) * 1000).toFixed(2)} ms per e-mail); ` +
        `load average at start ${run.load.toFixed(1)}`,
    );
  }
}
