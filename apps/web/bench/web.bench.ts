/**
 * Web performance benchmark (issue 27, "How it is measured"), against the built app as `npm start` and
 * a production deploy serve it:
 *
 * - Lighthouse 12 (mobile, default simulated throttling; performance only, median of BENCH_RUNS) on
 *   each page of bench/bench-pages.ts, with its target (95 for /login, /user/home, /share and /embed,
 *   90 for the others). A page the server renders must be hydrated on load: the run's user timings must
 *   hold the app's `helix:hydrated` mark (src/server-render/adopt.ts), or the page fails.
 * - The first tap (bench/first-tap.ts): a Lighthouse user flow (timespan, CPU slowed 4x) loads each
 *   page at 390, 820 and 1280 px and taps its main control as soon as it is hydrated: INP <= 200 ms,
 *   and CLS over the load, the hydration and the tap <= 0.02.
 * - The embed's first frame: navigation to the viewer's first rendered frame of the demo cell on
 *   /embed/{token} in headless Chromium (median of BENCH_FRAME_RUNS cold loads, target 1.5 s).
 *
 *   npm run build && npm run bench:web      (or: npx tsx apps/web/bench/web.bench.ts)
 *
 * It starts its own stack (API serving apps/web/dist, worker, viewer) over a fresh database with the
 * seed, like the browser tests' global setup, with NODE_ENV=production, and prints one table (page,
 * width, score, INP, CLS, target, pass/fail, the machine's load average). Environment: BENCH_RUNS
 * (Lighthouse runs per page; default 3), BENCH_FLOW_RUNS (first-tap flows per page and width, the
 * median is kept; default 1), BENCH_WIDTHS (default `390,820,1280`), BENCH_FRAME_RUNS (default 5),
 * BENCH_PAGES (a comma list of bench-pages.ts names: `login`, `signup`, `choose-subscription`, `embed`,
 * `share`, `home`, `users-list`, `subscription`), BENCH_ONLY (`lighthouse` or `frame`: only that part),
 * BENCH_JSON (write the figures there), BENCH_REPORTS (a folder: each Lighthouse report as JSON, for
 * its diagnostics), REDIS_URL, TEST_ADMIN_DATABASE_URL / DATABASE_URL (the PostgreSQL server).
 *
 * A benchmark prints figures: a missed target is a FAIL row and the exit code stays 0; it is 1 only
 * when the bench could not measure (the stack or a browser failed).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';
import { BENCH_PAGES, CLS_MAX, INP_MAX_MS, WIDTHS, type BenchPage } from './bench-pages.ts';
import { DEMO_OWNER, embedToken, startBenchStack, type BenchStack } from './bench-stack.ts';
import { firstTap, type FirstTap } from './first-tap.ts';

const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
// The viewer draws with WebGL; headless Chromium has it through SwiftShader (as the browser tests).
const FRAME_FLAGS = [...CHROME_FLAGS, '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FLOW_RUNS = Number(process.env.BENCH_FLOW_RUNS ?? 1);
const FRAME_RUNS = Number(process.env.BENCH_FRAME_RUNS ?? 5);
const WIDTH_LIST = (process.env.BENCH_WIDTHS ?? WIDTHS.join(',')).split(',').map(Number);
/** `lighthouse` or `frame` to run only that part. */
const ONLY = process.env.BENCH_ONLY;
const PAGES = new Set(
  (process.env.BENCH_PAGES ?? BENCH_PAGES.map((p) => p.name).join(',')).split(',').map((p) => p.trim()),
);
const REPORTS = process.env.BENCH_REPORTS;
/** The /embed first frame's target (issue 30): median of FRAME_RUNS cold loads. */
const FIRST_FRAME_MAX_MS = Number(process.env.BENCH_FIRST_FRAME_MAX_MS ?? 900);

/** One page's Lighthouse navigation (the median run). */
interface Navigation {
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  /** The `helix:hydrated` mark in the run's user timings (observed, unthrottled ms); NaN: not hydrated. */
  hydratedMs: number;
  error?: string;
}

/** One row of the table: a page at one width. */
interface Row {
  page: string;
  width: number;
  /** The Lighthouse score, on the page's first row only. */
  navigation?: Navigation;
  tap: FirstTap;
  target: string;
  failures: string[];
  load: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The machine's 1-minute load average (2 cores shared with other work: it moves every figure). */
const load = (): number => os.loadavg()[0]!;

/** Signs the demo owner in through the login form, so the browser holds the session cookies the app writes. */
async function signIn(browser: Browser, apiUrl: string): Promise<void> {
  const page = await browser.newPage();
  await page.goto(new URL('/login', apiUrl).href, { waitUntil: 'networkidle0' });
  // The page arrives rendered by the server: wait until the app has hydrated it.
  await page.waitForSelector('#root[data-hydrated="true"], #root[data-rendered="true"]', { timeout: 30_000 });
  // antd names the fields <form name>_<field name>.
  await page.locator('#login_email').fill(DEMO_OWNER.email);
  await page.locator('#login_password').fill(DEMO_OWNER.password);
  await page.locator('form#login button[type="submit"]').click();
  await page.waitForFunction(() => !location.pathname.startsWith('/login'), { timeout: 30_000 });
  const cookies = await browser.cookies();
  if (!cookies.some((c) => c.name === 'apiToken')) throw new Error('signing in set no apiToken cookie');
  await page.close();
}

let reportCount = 0;

/** The next file in BENCH_REPORTS for a Lighthouse report about `what`; none without BENCH_REPORTS. */
function reportFile(what: string): string | undefined {
  if (!REPORTS) return undefined;
  mkdirSync(REPORTS, { recursive: true });
  reportCount += 1;
  return path.join(REPORTS, `${String(reportCount).padStart(2, '0')}-${what}.json`);
}

async function audit(port: number, url: string, page: BenchPage): Promise<Navigation> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
  });
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
  const report = reportFile(page.name);
  if (report) writeFileSync(report, JSON.stringify(lhr));
  const marks =
    (lhr.audits['user-timings']?.details as { items?: { name: string; startTime?: number }[] } | undefined)
      ?.items ?? [];
  const error = lhr.runtimeError?.code;
  return {
    ...(error ? { error } : {}),
    score: lhr.categories.performance?.score ?? 0,
    fcpMs: lhr.audits['first-contentful-paint']?.numericValue ?? NaN,
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
    hydratedMs: marks.find((m) => m.name === 'helix:hydrated')?.startTime ?? NaN,
  };
}

/**
 * The run with the median performance score stands for the page (Lighthouse's own advice). A run
 * Lighthouse could not measure (a trace error such as NO_NAVSTART on a loaded machine scores 0) is left
 * out while another run succeeded, and tried again up to twice when none did; the row shows the error
 * otherwise.
 */
async function auditMedian(port: number, url: string, page: BenchPage): Promise<Navigation> {
  const runs: Navigation[] = [];
  for (let i = 0; i < RUNS; i += 1) runs.push(await audit(port, url, page));
  // Up to two more tries when no run could be measured (frequent on a loaded machine).
  for (let retry = 0; retry < 2 && runs.every((r) => r.error); retry += 1) {
    runs.push(await audit(port, url, page));
  }
  const measured = runs.filter((r) => !r.error);
  const sorted = (measured.length ? measured : runs).sort((a, b) => a.score - b.score);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** The median of FLOW_RUNS first-tap flows (INP and CLS each); the first error, if every run had one. */
async function firstTapMedian(
  browser: Browser,
  page: BenchPage,
  url: string,
  width: number,
): Promise<FirstTap> {
  const runs: FirstTap[] = [];
  for (let i = 0; i < FLOW_RUNS; i += 1) {
    runs.push(await firstTap(browser, page, url, width, reportFile(`${page.name}-${width}`)));
  }
  const ok = runs.filter((r) => !r.error);
  if (!ok.length) return runs[0]!;
  return {
    inpMs: median(ok.map((r) => r.inpMs)),
    cls: median(ok.map((r) => r.cls)),
    hydratedMs: median(ok.map((r) => r.hydratedMs)),
  };
}

/** What a row misses of its targets (the score and the hydration on the page's first row). */
function failuresOf(page: BenchPage, tap: FirstTap, navigation?: Navigation): string[] {
  const failures: string[] = [];
  if (navigation) {
    if (navigation.error) failures.push(`Lighthouse: ${navigation.error}`);
    if (navigation.score < page.score) failures.push(`score < ${page.score * 100}`);
    if (page.hydrates && !navigation.error && Number.isNaN(navigation.hydratedMs)) {
      failures.push('not hydrated on load');
    }
  }
  if (tap.error) failures.push(tap.error);
  else {
    if (Number.isNaN(tap.inpMs)) failures.push('no interaction counted');
    else if (tap.inpMs > INP_MAX_MS) failures.push(`INP > ${INP_MAX_MS} ms`);
    if (!(tap.cls <= CLS_MAX)) failures.push(`CLS > ${CLS_MAX}`);
    if (page.hydrates && Number.isNaN(tap.hydratedMs)) failures.push('not hydrated');
  }
  return failures;
}

const COLUMNS: [string, number][] = [
  ['page', 28],
  ['width', 6],
  ['score', 6],
  ['FCP/LCP/TBT ms', 17],
  ['hydrated', 9],
  ['INP ms', 7],
  ['CLS', 7],
  ['target', 24],
  ['load', 6],
  ['', 0],
];

function formatRow(row: Row): string {
  const n = row.navigation;
  const ms = (x: number) => (Number.isNaN(x) ? '—' : x.toFixed(0));
  const cells = [
    row.page,
    String(row.width),
    n ? (n.score * 100).toFixed(0) : '',
    n ? `${ms(n.fcpMs)}/${ms(n.lcpMs)}/${ms(n.tbtMs)}` : '',
    ms(row.tap.hydratedMs),
    ms(row.tap.inpMs),
    Number.isNaN(row.tap.cls) ? '—' : row.tap.cls.toFixed(3),
    row.target,
    row.load.toFixed(1),
    row.failures.length ? `FAIL (${row.failures.join('; ')})` : 'pass',
  ];
  return cells
    .map((c, i) => (i === 0 || i === 7 ? c.padEnd(COLUMNS[i]![1]) : c.padStart(COLUMNS[i]![1])))
    .join(' ');
}

const header = (): string =>
  COLUMNS.map(([name, w], i) => (i === 0 || i === 7 ? name.padEnd(w) : name.padStart(w))).join(' ');

/** One page: its Lighthouse median, then the first tap at each width; each row printed as it comes. */
async function measurePage(browser: Browser, port: number, page: BenchPage, url: string): Promise<Row[]> {
  const navigation = await auditMedian(port, url, page);
  const rows: Row[] = [];
  for (const [i, width] of WIDTH_LIST.entries()) {
    const tap = await firstTapMedian(browser, page, url, width);
    const nav = i === 0 ? navigation : undefined;
    const row: Row = {
      page: page.path,
      width,
      ...(nav ? { navigation: nav } : {}),
      tap,
      target: `${page.score * 100}, ${INP_MAX_MS} ms, ${CLS_MAX}`,
      failures: failuresOf(page, tap, nav),
      load: load(),
    };
    console.log(formatRow(row));
    rows.push(row);
  }
  return rows;
}

/**
 * Navigation to /embed/{token} until the viewer (in its frame) has drawn the model: the viewer marks
 * `viewer:ready` right after its first render of the loaded model. Both time origins are wall-clock,
 * so the frame's mark can be placed on the page's timeline. A fresh profile each time: a first visit.
 */
interface FrameTiming {
  /** The viewer frame's navigation starts (the frame is in the page's HTML, drawn by the server). */
  frameStart: number;
  /** The model file is downloaded (started by the viewer document's preload, beside its script). */
  fetched: number;
  /** The glTF is parsed. */
  parsed: number;
  /** The first frame of the model is drawn. */
  ready: number;
}

async function firstFrame(url: string): Promise<FrameTiming> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: FRAME_FLAGS });
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    await page.goto(url);
    const handle = await page.waitForSelector('iframe.embed-frame', { timeout: 90_000 });
    const frame = await handle!.contentFrame();
    await frame.waitForFunction(() => document.body?.dataset.viewerState === 'ready', { timeout: 60_000 });
    // Let the frame reach the screen before reading the marks.
    await frame.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
    // A string, not a function: tsx would add helpers (__name) that do not exist in the page.
    const marks = (await frame.evaluate(`(() => {
      const at = (name) => {
        const mark = performance.getEntriesByName(name)[0];
        return mark ? performance.timeOrigin + mark.startTime : NaN;
      };
      return {
        frameStart: performance.timeOrigin,
        fetched: at('viewer:fetched'),
        parsed: at('viewer:parsed'),
        ready: at('viewer:ready'),
      };
    })()`)) as FrameTiming;
    const pageOrigin = await page.evaluate(() => performance.timeOrigin);
    await browser.disconnect();
    return {
      frameStart: marks.frameStart - pageOrigin,
      fetched: marks.fetched - pageOrigin,
      parsed: marks.parsed - pageOrigin,
      ready: marks.ready - pageOrigin,
    };
  } finally {
    chrome.kill();
  }
}

async function main() {
  let bench: BenchStack | undefined;
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  const startLoad = os.loadavg();
  try {
    bench = await startBenchStack('web', { RATE_LIMIT_MAX: '1000', EMBED_RATE_LIMIT_MAX: '100000' });
    const { apiUrl } = bench.stack;
    const token = await embedToken(apiUrl);
    const urlOf = (page: BenchPage) => new URL(page.path.replace('{token}', token), apiUrl).href;

    const rows: Row[] = [];
    if (ONLY !== 'frame') {
      chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
      const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
      console.log(
        `\nLighthouse 12 (mobile, simulated throttling, median of ${RUNS}; score and FCP/LCP/TBT on the ` +
          `page's first row), then the first tap (user flow, CPU 4x, median of ${FLOW_RUNS}) at each width. ` +
          `"hydrated": the helix:hydrated mark in the flow, ms after navigation start (CPU 4x). ` +
          `target: score, INP, CLS. load: the 1-minute load average on ${os.cpus().length} cores.\n`,
      );
      console.log(header());
      // Guests first (bench-pages.ts's order), while the browser holds no session.
      let signedIn = false;
      for (const page of BENCH_PAGES.filter((p) => PAGES.has(p.name))) {
        if (page.signedIn && !signedIn) {
          await signIn(browser, apiUrl);
          signedIn = true;
        }
        rows.push(...(await measurePage(browser, chrome.port, page, urlOf(page))));
      }
      await browser.disconnect();
      chrome.kill();
      chrome = undefined;
      const pages = new Set(rows.map((r) => r.page));
      const met = [...pages].filter((p) => rows.every((r) => r.page !== p || !r.failures.length));
      console.log(
        `\nTargets met on ${met.length} of ${pages.size} pages${met.length ? `: ${met.join(', ')}` : ''}.`,
      );
    }
    const timings: FrameTiming[] = [];
    let frameMedian = NaN;
    if (ONLY !== 'lighthouse' && PAGES.has('embed')) {
      for (let i = 0; i < FRAME_RUNS; i += 1)
        timings.push(await firstFrame(urlOf(BENCH_PAGES.find((p) => p.name === 'embed')!)));
      const frames = timings.map((t) => t.ready);
      frameMedian = median(frames);
      console.log(
        `\nEmbed first frame (navigation to the viewer's first rendered frame of the demo cell), ` +
          `${FRAME_RUNS} cold loads: median ${frameMedian.toFixed(0)} ms, ` +
          `min ${Math.min(...frames).toFixed(0)} ms, max ${Math.max(...frames).toFixed(0)} ms ` +
          `(target ${FIRST_FRAME_MAX_MS} ms: ${frameMedian <= FIRST_FRAME_MAX_MS ? 'pass' : 'FAIL'})`,
      );
      const step = (k: keyof FrameTiming) => median(timings.map((t) => t[k])).toFixed(0);
      console.log(
        `  medians: viewer frame starts ${step('frameStart')} ms, model downloaded ${step('fetched')} ms, ` +
          `parsed ${step('parsed')} ms, first frame ${step('ready')} ms`,
      );
    }
    const endLoad = os.loadavg();
    console.log(
      `\n${new Date().toISOString()}: load average (1, 5, 15 min) ${startLoad.map((l) => l.toFixed(1)).join(', ')} ` +
        `at the start, ${endLoad.map((l) => l.toFixed(1)).join(', ')} at the end, on ${os.cpus().length} cores`,
    );
    if (process.env.BENCH_JSON) {
      writeFileSync(
        process.env.BENCH_JSON,
        JSON.stringify({ rows, timings, frameMedian, load: { start: startLoad, end: endLoad } }, null, 2),
      );
    }
  } finally {
    chrome?.kill();
    await bench?.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
