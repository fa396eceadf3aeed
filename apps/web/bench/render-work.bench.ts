/**
 * What React does on each first screen, counted rather than timed (issue 27; docs/web-performance.md):
 * `npm run build && npm run bench:render`. For each page of bench-pages.ts that
 * hydrates, a first visit at CPU 4x (390 px, touch): React's commits before and after the
 * `helix:hydrated` mark and after a tap on the page's main control, with the components each commit
 * rendered (a stand-in for React DevTools' hook, which React calls on every commit, even in a production
 * build), and the main thread's script and task time (Chrome's Performance metrics) up to the mark and
 * for the tap; the long tasks up to the mark (their total over 50 ms each: Lighthouse's total blocking
 * time before its 4x) and the scripts loaded by then (bytes as sent, compressed). /share is measured
 * on an embed link of the demo cell. Component counts and bytes do not follow the machine's load; the
 * times do (the load is printed).
 * BENCH_PAGES narrows the pages; RENDER_NAMES=1 lists the components of each commit (a build with
 * `--minify false` names them); RENDER_PROFILE=1 prints where the main thread's time to the mark went
 * (a CPU profile's self time per script and function); RENDER_SCRIPTS=1 lists the scripts loaded by the mark.
 */
import os from 'node:os';
import * as chromeLauncher from 'chrome-launcher';
import puppeteer, { type Browser, type CDPSession, type Page } from 'puppeteer-core';
import { BENCH_PAGES, HYDRATED, type BenchPage } from './bench-pages.ts';
import { DEMO_OWNER, embedToken, startBenchStack, type BenchStack } from './bench-stack.ts';

const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PAGES = new Set(
  (process.env.BENCH_PAGES ?? BENCH_PAGES.map((p) => p.name).join(',')).split(',').map((p) => p.trim()),
);
const NAMES = process.env.RENDER_NAMES === '1';
const PROFILE = process.env.RENDER_PROFILE === '1';

/**
 * Installed before the page's scripts: React finds it and reports each commit. A fiber counts as
 * rendered in a commit when it is not the object the previous commit held (React made a new
 * work-in-progress for it) and carries PerformedWork (flag 1): what React DevTools counts.
 */
const HOOK = `(() => {
  const commits = [];
  // The main thread's long tasks (over 50 ms), as Lighthouse's total blocking time counts them.
  const longTasks = [];
  window.__longTasks = longTasks;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push({ at: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  // Per root: antd's notifications and modals render in roots of their own.
  const previousOf = new WeakMap();
  const nameOf = (f) => {
    const t = f.type;
    if (!t || typeof t === 'string') return null;
    return t.displayName || t.name || (t.render && (t.render.displayName || t.render.name)) ||
      (t.type && (t.type.displayName || t.type.name)) || '?';
  };
  const COMPONENT_TAGS = new Set([0, 1, 11, 14, 15]);
  window.__renderCommits = commits;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject(renderer) { this.renderers.set(1, renderer); return 1; },
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    onCommitFiberRoot(_id, root) {
      const previous = previousOf.get(root) ?? new WeakSet();
      const seen = new WeakSet();
      const names = [];
      let rendered = 0;
      const stack = [root.current];
      while (stack.length) {
        const f = stack.pop();
        seen.add(f);
        if (previous.has(f)) continue; // the same object as last commit: not rendered, nor its subtree
        if (COMPONENT_TAGS.has(f.tag) && (f.flags & 1)) {
          rendered++;
          names.push(nameOf(f));
        }
        for (let c = f.child; c; c = c.sibling) stack.push(c);
      }
      // Fibers under a skipped subtree stay the same objects: remember them as seen too.
      const mark = (f) => { for (let c = f; c; c = c.sibling) { seen.add(c); if (c.child) mark(c.child); } };
      mark(root.current);
      previousOf.set(root, seen);
      const hydrated = performance.getEntriesByName('helix:hydrated')[0];
      const tapped = performance.getEntriesByName('bench:tap')[0];
      const answered = performance.getEntriesByName('bench:answered')[0];
      commits.push({
        at: performance.now(),
        phase: answered ? 'later' : tapped ? 'tap' : hydrated ? 'after' : 'before',
        rendered,
        names,
      });
    },
  };
})()`;

interface Metrics {
  script: number;
  task: number;
}

async function metrics(session: CDPSession): Promise<Metrics> {
  const { metrics: list } = (await session.send('Performance.getMetrics')) as {
    metrics: { name: string; value: number }[];
  };
  const get = (name: string) => (list.find((m) => m.name === name)?.value ?? 0) * 1000;
  return { script: get('ScriptDuration'), task: get('TaskDuration') };
}

interface Commit {
  at: number;
  phase: 'before' | 'after' | 'tap' | 'later';
  rendered: number;
  names: string[];
}

async function measure(browser: Browser, url: string, bench: BenchPage): Promise<void> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  if (bench.signedIn) await signIn(page, new URL(url).origin);
  // A first visit: the service worker the sign-in's page registered would answer the next navigation
  // with the app shell from its precache (the page then drawn by the app, not hydrated).
  await page.setBypassServiceWorker(true);
  await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
  await page.evaluateOnNewDocument(HOOK);
  // A hydration that did not match the server's markup is reported on the console (React's
  // recoverable errors): any console error is printed.
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  const session = await page.createCDPSession();
  await session.send('Performance.enable');
  await session.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  if (PROFILE) {
    await session.send('Profiler.enable');
    await session.send('Profiler.setSamplingInterval', { interval: 500 });
    await session.send('Profiler.start');
  }
  const start = await metrics(session);
  await page.goto(url);
  // A page the app drew instead of hydrating (the server's markup not adopted) is said so.
  await page.waitForSelector(`${HYDRATED}, #root[data-rendered="true"]`, { timeout: 90_000 });
  if (!(await page.$(HYDRATED))) console.log(`${bench.path}: drawn by the app, not hydrated`);
  const atMark = await metrics(session);
  const profile = PROFILE ? ((await session.send('Profiler.stop')) as { profile: CpuProfile }).profile : null;
  // Whatever runs after the mark (what a tap right after load waits for): 3 s of quiet.
  await new Promise((r) => setTimeout(r, 3000));
  const settled = await metrics(session);
  await page.evaluate(() => performance.mark('bench:tap'));
  await page.locator(bench.control).click();
  if (bench.answered) await page.waitForSelector(bench.answered, { timeout: 30_000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  const tapped = await metrics(session);
  // What the answer leaves for later (a deferred render, motion): 1.5 s more.
  await page.evaluate(() => performance.mark('bench:answered'));
  await new Promise((r) => setTimeout(r, 1500));
  const later = await metrics(session);
  const commits = (await page.evaluate('window.__renderCommits')) as Commit[];
  const hydratedAt = (await page.evaluate(
    `performance.getEntriesByName('helix:hydrated')[0]?.startTime ?? NaN`,
  )) as number;
  const documentAt = (await page.evaluate(
    `performance.getEntriesByType('navigation')[0]?.responseEnd ?? NaN`,
  )) as number;
  const tasks = (await page.evaluate('window.__longTasks')) as { at: number; ms: number }[];
  const toMark = tasks.filter((t) => t.at < hydratedAt);
  const blocking = toMark.reduce((n, t) => n + Math.max(0, t.ms - 50), 0);
  const longest = Math.max(0, ...toMark.map((t) => t.ms));
  // What the page's scripts weigh on the wire (compressed as served), a first visit with an empty cache.
  const scripts = await page.evaluate(
    (until) =>
      (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
        .filter((r) => /\.m?js(\?|$)/.test(r.name) && !/\/sw\.js|workbox/.test(r.name) && r.startTime < until)
        .map((r) => ({
          name: r.name.replace(/^.*\//, ''),
          bytes: r.encodedBodySize,
          at: `${Math.round(r.startTime)}-${Math.round(r.responseEnd)} ms`,
        })),
    hydratedAt,
  );
  const scriptKb = scripts.reduce((n, s) => n + s.bytes, 0) / 1000;
  const sum = (phase: Commit['phase']) => commits.filter((c) => c.phase === phase);
  const line = (phase: Commit['phase']) => {
    const list = sum(phase);
    return `${list.length} commits, ${list.reduce((n, c) => n + c.rendered, 0)} components`;
  };
  const ms = (n: number) => `${Math.round(n)} ms`;
  console.log(
    `${bench.path} (load ${os.loadavg()[0]!.toFixed(1)}): document at ${ms(documentAt)}, hydrated at ${ms(hydratedAt)}; ` +
      `scripts to the mark: ${scripts.length} files, ${scriptKb.toFixed(1)} kB as sent; ` +
      `long tasks to the mark: ${toMark.length}, longest ${ms(longest)}, blocking (over 50 ms each) ${ms(blocking)}; ` +
      `to the mark: ${line('before')}, script ${ms(atMark.script - start.script)}, tasks ${ms(atMark.task - start.task)}; ` +
      `3 s after it: ${line('after')}, script ${ms(settled.script - atMark.script)}, tasks ${ms(settled.task - atMark.task)}; ` +
      `the tap until answered and painted: ${line('tap')}, script ${ms(tapped.script - settled.script)}, tasks ${ms(tapped.task - settled.task)}; ` +
      `1.5 s after: ${line('later')}, script ${ms(later.script - tapped.script)}, tasks ${ms(later.task - tapped.task)}`,
  );
  for (const error of errors) console.log(`  console error: ${error.slice(0, 300)}`);
  if (profile) printProfile(profile);
  if (process.env.RENDER_SCRIPTS === '1') {
    for (const s of scripts.sort((a, b) => b.bytes - a.bytes))
      console.log(`    ${s.bytes} B ${s.name} (${s.at})`);
  }
  if (NAMES) {
    for (const c of commits) {
      if (c.phase === 'before' && c.rendered > 50) {
        console.log(`  ${c.phase} +${ms(c.at - hydratedAt)}: ${c.rendered} components (hydration)`);
        continue;
      }
      const counts = new Map<string, number>();
      for (const n of c.names) counts.set(n, (counts.get(n) ?? 0) + 1);
      const list = [...counts].map(([n, k]) => (k > 1 ? `${n}×${k}` : n)).join(' ');
      console.log(`  ${c.phase} +${ms(c.at - hydratedAt)}: ${c.rendered}: ${list}`);
    }
  }
  await context.close();
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** RENDER_PROFILE=1: the CPU profile to the mark, self time per script and the heaviest functions. */
function printProfile(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const perFile = new Map<string, number>();
  const perFunction = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const file = frame.url ? frame.url.replace(/^.*\//, '') : `(${frame.functionName || 'program'})`;
    perFile.set(file, (perFile.get(file) ?? 0) + ms);
    const fn = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber}`;
    perFunction.set(fn, (perFunction.get(fn) ?? 0) + ms);
  });
  const top = (map: Map<string, number>, n: number) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
  console.log('  self time to the mark, per script:');
  for (const [file, ms] of top(perFile, 15)) console.log(`    ${Math.round(ms)} ms ${file}`);
  console.log('  heaviest functions:');
  for (const [fn, ms] of top(perFunction, 25)) console.log(`    ${Math.round(ms)} ms ${fn}`);
}

async function signIn(page: Page, origin: string): Promise<void> {
  await page.goto(new URL('/login', origin).href);
  await page.waitForSelector(HYDRATED, { timeout: 60_000 });
  await page.locator('#login_email').fill(DEMO_OWNER.email);
  await page.locator('#login_password').fill(DEMO_OWNER.password);
  await page.locator('form#login button[type="submit"]').click();
  await page.waitForFunction(() => !location.pathname.startsWith('/login'), { timeout: 30_000 });
}

async function main() {
  let bench: BenchStack | undefined;
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    bench = await startBenchStack('render', { RATE_LIMIT_MAX: '1000' });
    chrome = await chromeLauncher.launch({
      chromePath: CHROME_PATH,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const pages = BENCH_PAGES.filter((p) => p.hydrates && PAGES.has(p.name));
    const token = pages.some((p) => p.path.includes('{token}')) ? await embedToken(bench.stack.apiUrl) : '';
    for (const page of pages) {
      await measure(browser, new URL(page.path.replace('{token}', token), bench.stack.apiUrl).href, page);
    }
    await browser.disconnect();
  } finally {
    chrome?.kill();
    await bench?.stop();
  }
}

await main();
