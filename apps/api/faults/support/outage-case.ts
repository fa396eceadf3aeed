import type { Db } from '@helix/server/db';
import { sleep } from '@helix/stack/services/net';
import { recordedViews, type EmbedFixture } from '../../test/embed-fixture.ts';
import { pacedEmbedLoads, since, summarise, type Sample } from './paced-loads.ts';

interface ReadySample {
  at: number;
  ms: number;
  status: number;
}

/** GET /api/ready every 250 ms until stop(): how fast and what it answers through an outage. */
function pollReady(api: string, t0: number): { stop(): Promise<ReadySample[]> } {
  const samples: ReadySample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const start = performance.now();
      let status = 0;
      try {
        const res = await fetch(`${api}/api/ready`, { signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        status = 0;
      }
      samples.push({ at: start - t0, ms: performance.now() - start, status });
      await sleep(250);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}

/**
 * Waits until `read` answers `expected` (views flushed by the worker), then a further flush interval
 * to see that nothing more arrives. Resolves with the last value read and when it got there.
 */
async function waitForViews(
  read: () => Promise<number>,
  expected: number,
  timeoutMs: number,
): Promise<{ views: number; at: number }> {
  const deadline = Date.now() + timeoutMs;
  let views = await read();
  while (views < expected && Date.now() < deadline) {
    await sleep(250);
    views = await read();
  }
  const at = performance.now();
  // A late batch (a count twice) would land within the worker's next flush or two.
  await sleep(4000);
  return { views: await read(), at };
}

export interface OutageRun {
  /** performance.now() when the loads started; every `at` below is ms since then. */
  t0: number;
  samples: Sample[];
  readySamples: ReadySample[];
  downAt: number;
  upAt: number;
  loadsEnd: number;
  /** Viewer loads answered 200 (one view each). */
  served: number;
  /** Views recorded once the worker has flushed (all of them since the fixture was made). */
  flushed: { views: number; at: number };
}

/**
 * The outage flow both service outages share: paced embed loads and /api/ready polls start, the
 * service stops 3 s in, starts again `outageMs` later, the loads go on `afterMs` more, then waits
 * (30 s at most) until the views recorded reach `viewsBefore` + the viewer loads served.
 */
export async function outageUnderLoads(options: {
  api: string;
  db: Db;
  fixture: EmbedFixture;
  perSecond: number;
  service: { stop(): Promise<void>; start(): Promise<void> };
  outageMs: number;
  afterMs: number;
  viewsBefore?: number;
}): Promise<OutageRun> {
  const { api, db, fixture } = options;
  const loads = pacedEmbedLoads({
    api,
    token: fixture.token,
    urlModelName: fixture.urlModelName,
    perSecond: options.perSecond,
  });
  const ready = pollReady(api, loads.t0);
  await sleep(3000);
  await options.service.stop();
  const downAt = since(loads.t0);
  await sleep(options.outageMs);
  await options.service.start();
  const upAt = since(loads.t0);
  await sleep(options.afterMs);
  const samples = await loads.stop();
  const readySamples = await ready.stop();
  const loadsEnd = since(loads.t0);

  const served = samples.filter((s) => s.kind === 'viewer' && s.status === 200).length;
  const flushed = await waitForViews(
    () => recordedViews(db, fixture.modelId),
    (options.viewsBefore ?? 0) + served,
    30_000,
  );
  return { t0: loads.t0, samples, readySamples, downAt, upAt, loadsEnd, served, flushed };
}

/** The figures both outage cases print (their README row), beside what each adds. */
export function outageFigures(run: OutageRun, outageSeconds: number, viewsRecorded: number) {
  const { samples, readySamples, upAt } = run;
  const recovered = readySamples.find((r) => r.at >= upAt && r.status === 200);
  return {
    outage: `${outageSeconds} s`,
    loads: samples.filter((s) => s.kind === 'viewer').length,
    ...summarise(samples),
    'during outage': summarise(duringOutage(run)).statuses,
    'ready max ms': Math.round(Math.max(...readySamples.map((r) => r.ms))),
    'ready 200 again after s': recovered ? ((recovered.at - upAt) / 1000).toFixed(1) : 'never',
    'viewer 200': run.served,
    'views recorded': viewsRecorded,
    'views exact s after last load': ((run.flushed.at - run.t0 - run.loadsEnd) / 1000).toFixed(1),
  };
}

/** The samples sent while the service was down. */
export const duringOutage = (run: OutageRun) =>
  run.samples.filter((s) => s.at >= run.downAt && s.at < run.upAt);
