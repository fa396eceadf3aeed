/** One HTTP request of a load, as the client saw it. */
export interface Sample {
  kind: 'detail' | 'viewer';
  /** ms since the loads started. */
  at: number;
  ms: number;
  /** 0: no answer within the client's timeout (or a network error). */
  status: number;
  code?: string;
  retryAfter?: string | null;
}

/** A request's sample and its body (the embed detail's carries the load's viewer token). */
async function timedWithBody(
  kind: Sample['kind'],
  t0: number,
  request: () => Promise<Response>,
): Promise<{ sample: Sample; body: string }> {
  let body = '';
  const sample = await timed(kind, t0, async () => {
    const res = await request();
    body = await res.clone().text();
    return res;
  });
  return { sample, body };
}

/** The client gives up after this long (a browser's fetch would wait longer; 10 s was the old hang). */
const CLIENT_TIMEOUT_MS = 10_000;
/** The viewer host's origin the API allows (the fault cases set VIEWER_URL to it). */
export const VIEWER_ORIGIN = 'http://127.0.0.1:9';

async function timed(kind: Sample['kind'], t0: number, request: () => Promise<Response>): Promise<Sample> {
  const start = performance.now();
  try {
    const res = await request();
    const text = await res.text();
    let code: string | undefined;
    try {
      code = (JSON.parse(text) as { code?: string }).code;
    } catch {
      code = undefined;
    }
    return {
      kind,
      at: start - t0,
      ms: performance.now() - start,
      status: res.status,
      code,
      retryAfter: res.headers.get('retry-after'),
    };
  } catch {
    return { kind, at: start - t0, ms: performance.now() - start, status: 0 };
  }
}

/**
 * Embed page loads at a steady pace, each as the share/embed page does it: the embed detail call, then
 * (when it answered) the viewer's model lookup (which counts one view) with the new viewer token the
 * detail minted, so every load answered 200 is exactly one view (the API under test must have a
 * ceiling per address above the loads: they all come from one address). Loads start on schedule whether or not earlier ones have answered (a hang
 * shows as slow samples, not as a slower pace). Runs until stop() and resolves with every sample.
 */
export function pacedEmbedLoads(options: {
  api: string;
  token: string;
  urlModelName: string;
  perSecond: number;
  /** The viewer host's origin the API allows (default VIEWER_ORIGIN). */
  origin?: string;
}): { stop(): Promise<Sample[]>; samples: Sample[]; t0: number } {
  const samples: Sample[] = [];
  const inFlight = new Set<Promise<void>>();
  const t0 = performance.now();
  const json = { 'Content-Type': 'application/json' };
  const body = JSON.stringify({ token: options.token });
  const one = async () => {
    const timeout = () => AbortSignal.timeout(CLIENT_TIMEOUT_MS);
    const detail = await timedWithBody('detail', t0, () =>
      fetch(`${options.api}/api/model/embed/detail`, {
        method: 'POST',
        headers: json,
        body,
        signal: timeout(),
      }),
    );
    samples.push(detail.sample);
    // A page whose detail call failed shows no viewer frame.
    if (detail.sample.status !== 200) return;
    const viewer = (JSON.parse(detail.body) as { viewer: string }).viewer;
    const query = new URLSearchParams({
      model: options.urlModelName,
      subscription: options.token,
      currentmode: 'embedding',
      version: '1',
      viewer,
    });
    samples.push(
      await timed('viewer', t0, () =>
        fetch(`${options.api}/api/viewer/model?${query.toString()}`, {
          headers: { Origin: options.origin ?? VIEWER_ORIGIN },
          signal: timeout(),
        }),
      ),
    );
  };
  const timer = setInterval(() => {
    const p = one().finally(() => inFlight.delete(p));
    inFlight.add(p);
  }, 1000 / options.perSecond);
  return {
    samples,
    t0,
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return samples;
    },
  };
}

/** ms since `t0` (performance.now() based, as the samples' `at`). */
export const since = (t0: number) => performance.now() - t0;

/** A small summary of samples for the printed table. */
export function summarise(samples: Sample[]) {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const pct = (p: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! : 0;
  const byStatus: Record<string, number> = {};
  for (const s of samples) {
    const key = s.status === 200 ? '200' : `${s.status}${s.code ? ` ${s.code}` : ''}`;
    byStatus[key] = (byStatus[key] ?? 0) + 1;
  }
  return {
    requests: samples.length,
    p50: Math.round(pct(0.5)),
    p99: Math.round(pct(0.99)),
    max: Math.round(sorted.at(-1) ?? 0),
    statuses: Object.entries(byStatus)
      .map(([k, v]) => `${v}x ${k}`)
      .join(', '),
  };
}
