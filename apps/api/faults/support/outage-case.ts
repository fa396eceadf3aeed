import { sleep } from '@helix/stack/services/net';

export interface ReadySample {
  at: number;
  ms: number;
  status: number;
}

/** GET /api/ready every 250 ms until stop(): how fast and what it answers through an outage. */
export function pollReady(api: string, t0: number): { stop(): Promise<ReadySample[]> } {
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
export async function waitForViews(
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
