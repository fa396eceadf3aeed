/**
 * Web performance benchmark (issue 6 §2, "Fast on a classroom tablet"): Lighthouse 12 (mobile, default
 * simulated throttling) on /login, /user/home (signed in) and /embed/{token} against the built app as
 * `npm start` and a production deploy serve it, plus the time from navigation to the viewer's first
 * rendered frame of the demo cell on /embed/{token} in headless Chromium. Issue 18: also /share/{token},
 * /signup, /choose-subscription and the owner's /user/settings/users-list and /user/settings/subscription
 * (§14), and the home's first click on the user menu (§13, target 200 ms). Issue 27: each page the
 * server renders must be hydrated on load (the app's `helix:hydrated` mark, `#root[data-hydrated]`)
 * before it is measured.
 *
 *   npm run build && npm run bench:web      (or: npx tsx apps/web/bench/web.bench.ts)
 *
 * It starts its own stack (API serving apps/web/dist, worker, viewer) over a fresh database with the
 * seed, like the browser tests' global setup, with NODE_ENV=production. Environment: BENCH_RUNS
 * (Lighthouse runs per page, the median is kept; default 3), BENCH_FRAME_RUNS (default 5), REDIS_URL,
 * TEST_ADMIN_DATABASE_URL / DATABASE_URL (the PostgreSQL server), BENCH_JSON (write the summary there),
 * BENCH_ONLY (`lighthouse` or `frame`: only that half), BENCH_PAGES (a comma list of `login`, `embed`,
 * `home`, `share`, `signup`, `choose-subscription`, `users-list`, `subscription`: only those pages), BENCH_REPORTS (a folder: each Lighthouse report is written there as JSON,
 * for its diagnostics: main-thread work, request chains, long tasks).
 * Exit code 1 when a target is missed.
 */
import os from 'node:os';
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';
import { startBenchStack, type BenchStack } from './bench-stack.ts';

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
const FRAME_RUNS = Number(process.env.BENCH_FRAME_RUNS ?? 5);
/** `lighthouse` or `frame` to run only that half. */
const ONLY = process.env.BENCH_ONLY;
const PAGES = new Set(
  (process.env.BENCH_PAGES ?? 'login,embed,home,share,signup,choose-subscription,users-list,subscription')
    .split(',')
    .map((p) => p.trim()),
);
const REPORTS = process.env.BENCH_REPORTS;
const OWNER = { email: 'owner@demo.helix.local', password: 'owner-demo-2026' };

const TARGETS = { performance: 0.95, accessibility: 0.95, 'best-practices': 0.95 } as const;
// Lighthouse reports KiB; 250 kB is read as 250 KiB.
const LOGIN_BYTES_MAX = 250 * 1024;
/** The /embed first frame's target (issue 30): median of FRAME_RUNS cold loads. */
const FIRST_FRAME_MAX_MS = Number(process.env.BENCH_FIRST_FRAME_MAX_MS ?? 900);

type Category = keyof typeof TARGETS;

interface PageResult {
  page: string;
  scores: Record<Category, number>;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  scriptAndCssBytes: number;
  frameBytes: number;
  requests: unknown[];
  error?: string;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function api<T>(base: string, route: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(new URL(route, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** An embed link of the demo cell, made by the demo tenant's owner through the API. */
async function embedToken(apiUrl: string): Promise<string> {
  const login = await api<{ apiToken: string; tenant?: string; user?: { tenant?: string } }>(
    apiUrl,
    '/api/user/login',
    OWNER,
  );
  const tenant = 'demo';
  const listing = await fetch(new URL(`/api/t/${tenant}/model/all`, apiUrl), {
    headers: { authorization: `Bearer ${login.apiToken}` },
  });
  if (!listing.ok) throw new Error(`/model/all: ${listing.status}`);
  const models = (await listing.json()) as
    { models?: { id: number; name: string }[] } | { id: number; name: string }[];
  const list = Array.isArray(models) ? models : (models.models ?? []);
  const cell = list.find((m) => /cell/i.test(m.name));
  if (!cell) throw new Error(`no demo cell among ${list.map((m) => m.name).join(', ')}`);
  const embed = await api<{ token?: string; embedToken?: string; url?: string }>(
    apiUrl,
    `/api/t/${tenant}/model/embed`,
    { id: cell.id, settings: [] },
    login.apiToken,
  );
  const token = embed.token ?? embed.embedToken ?? embed.url?.split('/').pop();
  if (!token) throw new Error(`no token in ${JSON.stringify(embed)}`);
  return token;
}

/** Signs the demo owner in through the login form, so the browser holds the session cookies the app writes. */
async function signIn(browser: Browser, apiUrl: string): Promise<void> {
  const page = await browser.newPage();
  await page.goto(new URL('/login', apiUrl).href, { waitUntil: 'networkidle0' });
  // The page arrives rendered by the server: wait until the app has hydrated it.
  await page.waitForSelector('#root[data-hydrated="true"], #root[data-rendered="true"]', { timeout: 30_000 });
  // antd names the fields <form name>_<field name>.
  await page.locator('#login_email').fill(OWNER.email);
  await page.locator('#login_password').fill(OWNER.password);
  await page.locator('form#login button[type="submit"]').click();
  await page.waitForFunction(() => !location.pathname.startsWith('/login'), { timeout: 30_000 });
  const cookies = await browser.cookies();
  if (!cookies.some((c) => c.name === 'apiToken')) throw new Error('signing in set no apiToken cookie');
  await page.close();
}

/** The home's first click must be answered within this (issue 18 §13). */
const FIRST_CLICK_MAX_MS = 200;

/**
 * The first click on the server-rendered home: the signed-in browser opens /user/home as a first visit
 * (no service worker, so the API renders it), waits for the app's hydration mark, and clicks the user
 * menu. Measured on this machine, without throttling: from the press (the pointerdown event's time)
 * to the app's open menu; `hydrated`: when hydration completed (the `helix:hydrated` mark).
 */
async function firstClick(browser: Browser, apiUrl: string): Promise<{ hydrated: number; menu: number }> {
  const page = await browser.newPage();
  try {
    await page.setBypassServiceWorker(true);
    await page.setCacheEnabled(false);
    await page.goto(new URL('/user/home', apiUrl).href, { waitUntil: 'load' });
    await page.waitForSelector('#root[data-hydrated="true"] [data-testid="user-menu"]', { timeout: 30_000 });
    // A string, not a function: tsx would wrap the inner function in a helper the page lacks.
    await page.evaluate(`(() => {
      const seen = () => {
        if (window.__menu === undefined && document.querySelector('.ant-dropdown:not(.ant-dropdown-hidden) [role="menu"]'))
          window.__menu = performance.now();
      };
      new MutationObserver(seen).observe(document.body, { subtree: true, childList: true, attributes: true });
      document.addEventListener('pointerdown', (event) => {
        if (window.__pressed === undefined) window.__pressed = event.timeStamp;
      }, true);
    })()`);
    await page.click('[data-testid="user-menu"]');
    await page.waitForFunction(() => (window as unknown as { __menu?: number }).__menu !== undefined, {
      timeout: 30_000,
    });
    return (await page.evaluate(`(() => ({
      hydrated: performance.getEntriesByName('helix:hydrated')[0]?.startTime ?? NaN,
      menu: window.__menu - window.__pressed,
    }))()`)) as { hydrated: number; menu: number };
  } finally {
    await page.close();
  }
}

/**
 * A server-rendered page must be hydrated on load before it is measured: a first visit (no service
 * worker, no cache) waits for the app's hydration mark (`#root[data-hydrated]`, `helix:hydrated`) and
 * gives its time; a page that is not hydrated within 30 s fails the bench.
 */
async function hydratedAt(browser: Browser, url: string): Promise<number> {
  const page = await browser.newPage();
  try {
    await page.setBypassServiceWorker(true);
    await page.setCacheEnabled(false);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForSelector('#root[data-hydrated="true"]', { timeout: 30_000 });
    return (await page.evaluate(
      `performance.getEntriesByName('helix:hydrated')[0]?.startTime ?? NaN`,
    )) as number;
  } finally {
    await page.close();
  }
}

/** The page's Lighthouse median, once it is known to hydrate on load (hydratedAt). */
async function auditHydrated(browser: Browser, port: number, page: string, url: string): Promise<PageResult> {
  const at = await hydratedAt(browser, url);
  console.log(`${page}: hydrated ${at.toFixed(0)} ms after navigation start (unthrottled)`);
  return auditMedian(port, page, url);
}

let reportCount = 0;

/** The brotli body of a URL as the server sends it (not decoded), in bytes. */
function brotliBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'br' } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The figure the issue's 250 kB target is about: what /login sends as JavaScript and CSS. */
async function loginBytesLine(login: PageResult): Promise<string> {
  const files = (login.requests as { url: string; type?: string; target?: string }[]).filter(
    (r) => (r.type === 'Script' || r.type === 'Stylesheet') && (r.target ?? 'page') === 'page',
  );
  const bodies = (await Promise.all(files.map((f) => brotliBytes(f.url)))).reduce((a, b) => a + b, 0);
  return (
    `/login JS+CSS: ${(login.scriptAndCssBytes / 1024).toFixed(1)} KiB transferred in ${files.length} files ` +
    `(${(bodies / 1024).toFixed(1)} KiB of brotli bodies, the rest response headers); target 250 KiB`
  );
}

async function audit(port: number, url: string, page: string): Promise<Omit<PageResult, 'page'>> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: Object.keys(TARGETS),
  });
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse gave no result for ${url}`);
  if (REPORTS) {
    mkdirSync(REPORTS, { recursive: true });
    reportCount += 1;
    const name = `${String(reportCount).padStart(2, '0')}-${page.replace(/\W+/g, '_')}.json`;
    writeFileSync(path.join(REPORTS, name), JSON.stringify(lhr));
  }
  // A page that paints nothing of its own (NO_FCP) scores 0 for performance; it is reported, not fatal.
  const error = lhr.runtimeError?.code;
  const scores = Object.fromEntries(
    Object.keys(TARGETS).map((c) => [c, lhr.categories[c]?.score ?? 0]),
  ) as Record<Category, number>;
  const items =
    (
      lhr.audits['network-requests']?.details as {
        items?: {
          resourceType?: string;
          transferSize?: number;
          sessionTargetType?: string;
          url?: string;
          experimentalFromMainFrame?: boolean;
        }[];
      }
    )?.items ?? [];
  // What the page itself downloads (transfer sizes: compressed bodies plus response headers).
  const bytesOf = (from: (i: (typeof items)[number]) => boolean) =>
    items
      .filter((i) => (i.resourceType === 'Script' || i.resourceType === 'Stylesheet') && from(i))
      .reduce((sum, i) => sum + (i.transferSize ?? 0), 0);
  // The page's own requests; the viewer frame (another origin) and workers are counted apart.
  const fromPage = (i: (typeof items)[number]) => (i.sessionTargetType ?? 'page') === 'page';
  const scriptAndCssBytes = bytesOf(fromPage);
  const frameBytes = bytesOf((i) => !fromPage(i));
  return {
    ...(error ? { error } : {}),
    scores,
    fcpMs: lhr.audits['first-contentful-paint']?.numericValue ?? NaN,
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? NaN,
    scriptAndCssBytes,
    frameBytes,
    requests: items.map((i) => ({
      url: i.url,
      type: i.resourceType,
      bytes: i.transferSize,
      target: i.sessionTargetType,
      mainFrame: i.experimentalFromMainFrame,
    })),
  };
}

async function auditMedian(port: number, page: string, url: string): Promise<PageResult> {
  const runs: Omit<PageResult, 'page'>[] = [];
  for (let i = 0; i < RUNS; i += 1) runs.push(await audit(port, url, page));
  // The run with the median performance score stands for the page (Lighthouse's own advice). A run
  // Lighthouse could not measure (a trace error such as NO_NAVSTART on a loaded machine scores 0) is
  // left out while another run succeeded; the report shows the error otherwise.
  const measured = runs.filter((r) => !r.error || r.error === 'NO_FCP');
  const sorted = (measured.length ? measured : runs).sort(
    (a, b) => a.scores.performance - b.scores.performance,
  );
  return { page, ...sorted[Math.floor((sorted.length - 1) / 2)]! };
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
  let failed = false;
  try {
    bench = await startBenchStack('web', { RATE_LIMIT_MAX: '1000', EMBED_RATE_LIMIT_MAX: '100000' });
    const { stack } = bench;
    const { apiUrl } = stack;
    const token = await embedToken(apiUrl);
    const embedUrl = new URL(`/embed/${token}`, apiUrl).href;

    const results: PageResult[] = [];
    if (ONLY !== 'frame') {
      chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
      const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
      if (PAGES.has('login')) {
        results.push(await auditHydrated(browser, chrome.port, '/login', new URL('/login', apiUrl).href));
      }
      if (PAGES.has('embed')) results.push(await auditMedian(chrome.port, '/embed/{token}', embedUrl));
      // Issue 18 §14: every first screen (guests first, while the browser holds no session).
      if (PAGES.has('share')) {
        const shareUrl = new URL(`/share/${token}`, apiUrl).href;
        results.push(await auditMedian(chrome.port, '/share/{token}', shareUrl));
      }
      for (const guest of ['signup', 'choose-subscription']) {
        if (PAGES.has(guest)) {
          const url = new URL(`/${guest}`, apiUrl).href;
          results.push(await auditHydrated(browser, chrome.port, `/${guest}`, url));
        }
      }
      if (PAGES.has('home')) {
        await signIn(browser, apiUrl);
        const home = new URL('/user/home', apiUrl).href;
        results.push(await auditHydrated(browser, chrome.port, '/user/home', home));
        const clicks: { hydrated: number; menu: number }[] = [];
        for (let i = 0; i < RUNS; i += 1) clicks.push(await firstClick(browser, apiUrl));
        const answered = median(clicks.map((c) => c.menu));
        console.log(
          `First clicks: ${clicks.map((c) => `hydrated ${c.hydrated.toFixed(0)} ms, menu ${c.menu.toFixed(0)} ms`).join('; ')}`,
        );
        console.log(
          `\n/user/home hydrated on load (median ${median(clicks.map((c) => c.hydrated)).toFixed(0)} ms), first click ` +
            `on the user menu (median of ${RUNS}): the app's menu open ${answered.toFixed(0)} ms after the press`,
        );
        if (answered > FIRST_CLICK_MAX_MS) {
          failed = true;
          console.log(`  FAIL first click answered in ${answered.toFixed(0)} ms > ${FIRST_CLICK_MAX_MS} ms`);
        }
      }
      // The owner's settings pages (signed in by the home's run, or here).
      const owner = [
        ['users-list', '/user/settings/users-list'],
        ['subscription', '/user/settings/subscription'],
      ].filter(([name]) => PAGES.has(name!));
      if (owner.length && !PAGES.has('home')) await signIn(browser, apiUrl);
      for (const [, pathname] of owner) {
        results.push(await auditHydrated(browser, chrome.port, pathname!, new URL(pathname!, apiUrl).href));
      }
      await browser.disconnect();
      chrome.kill();
      chrome = undefined;

      console.log('\nLighthouse 12, mobile, default throttling (median of %d runs)', RUNS);
      console.log(
        'page'.padEnd(28) +
          'perf'.padStart(6) +
          'a11y'.padStart(6) +
          'bp'.padStart(6) +
          'FCP ms'.padStart(9) +
          'LCP ms'.padStart(9) +
          'TBT ms'.padStart(8) +
          'JS+CSS KiB'.padStart(11) +
          'frame KiB'.padStart(10),
      );
      for (const r of results) {
        console.log(
          r.page.padEnd(28) +
            (r.scores.performance * 100).toFixed(0).padStart(6) +
            (r.scores.accessibility * 100).toFixed(0).padStart(6) +
            (r.scores['best-practices'] * 100).toFixed(0).padStart(6) +
            r.fcpMs.toFixed(0).padStart(9) +
            r.lcpMs.toFixed(0).padStart(9) +
            r.tbtMs.toFixed(0).padStart(8) +
            (r.scriptAndCssBytes / 1024).toFixed(1).padStart(11) +
            (r.frameBytes / 1024).toFixed(1).padStart(10) +
            (r.error ? `  (${r.error})` : ''),
        );
        for (const [c, min] of Object.entries(TARGETS) as [Category, number][]) {
          if (r.scores[c] < min) {
            failed = true;
            console.log(`  FAIL ${r.page}: ${c} ${(r.scores[c] * 100).toFixed(0)} < ${min * 100}`);
          }
        }
      }
      const login = results.find((r) => r.page === '/login');
      if (login) console.log(await loginBytesLine(login));
      if (login && login.scriptAndCssBytes > LOGIN_BYTES_MAX) {
        failed = true;
        console.log(
          `  FAIL /login sends ${(login.scriptAndCssBytes / 1024).toFixed(1)} KiB of JS+CSS > 250 KiB`,
        );
      }
    }
    if (ONLY === 'lighthouse') return finish();
    const timings: FrameTiming[] = [];
    for (let i = 0; i < FRAME_RUNS; i += 1) timings.push(await firstFrame(embedUrl));
    const frames = timings.map((t) => t.ready);

    const frameMedian = median(frames);
    console.log(
      `\nEmbed first frame (navigation to the viewer's first rendered frame of the demo cell), ` +
        `${FRAME_RUNS} cold loads: median ${frameMedian.toFixed(0)} ms, ` +
        `min ${Math.min(...frames).toFixed(0)} ms, max ${Math.max(...frames).toFixed(0)} ms`,
    );
    const step = (k: keyof FrameTiming) => median(timings.map((t) => t[k])).toFixed(0);
    console.log(
      `  medians: viewer frame starts ${step('frameStart')} ms, model downloaded ${step('fetched')} ms, ` +
        `parsed ${step('parsed')} ms, first frame ${step('ready')} ms ` +
        `(load average ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(' / ')} on ${os.cpus().length} cores)`,
    );
    if (frameMedian > FIRST_FRAME_MAX_MS) {
      failed = true;
      console.log(`  FAIL first frame ${frameMedian.toFixed(0)} ms > ${FIRST_FRAME_MAX_MS} ms`);
    }
    return finish(timings, frameMedian);

    function finish(timings: FrameTiming[] = [], frameMedian = NaN) {
      console.log(failed ? '\nFAIL' : '\nPASS');
      if (process.env.BENCH_JSON) {
        writeFileSync(process.env.BENCH_JSON, JSON.stringify({ results, timings, frameMedian }, null, 2));
      }
    }
  } finally {
    chrome?.kill();
    await bench?.stop();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
