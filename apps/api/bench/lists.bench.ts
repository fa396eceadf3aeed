/**
 * `npm run bench:lists` (after `npm run seed:large` and `npm run build`): every list and statistics
 * call measured through HTTP against a real API process over the large database (helix_large), and
 * each list page's render time in Chromium (docs/lists-at-scale.md; goal: p95 <= 200 ms, render <= 1 s).
 *
 * It starts the stack (API serving apps/web/dist, worker, viewer) over helix_large with
 * NODE_ENV=production, signs in as the seed's demo platform admin and owner (the large seed keeps
 * them, and puts 2,000 more users and 5,000 links in the demo school), then:
 *
 * - API: each case of CALLS (one table: add a row to measure another list) BENCH_N times (default 20)
 *   after one warm-up, one at a time, printing p50 and p95;
 * - pages: each of PAGES BENCH_PAGE_RUNS times (default 3) in headless Chromium, from navigation
 *   until the list's first rows are shown, printing the median and the worst.
 *
 * Environment: LARGE_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/helix_large),
 * REDIS_URL, BENCH_N, BENCH_PAGE_RUNS, BENCH_ONLY (`api` or `pages`). Exit code 1 when a goal is missed.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '@helix/stack/chromium';
import { DEMO_ACCOUNTS } from '../../../prisma/seed/demo-accounts.ts';
import { startStack } from '@helix/stack/stack';
import type { Page } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const DATABASE_URL = process.env.LARGE_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/helix_large';
const N = Number(process.env.BENCH_N ?? 20);
const PAGE_RUNS = Number(process.env.BENCH_PAGE_RUNS ?? 3);
const ONLY = process.env.BENCH_ONLY;
const CALL_P95_MAX_MS = 200;
const RENDER_MAX_MS = 1000;

type Who = 'admin' | 'owner';

/** Every list and statistics call: who calls it and the path under /api/t/<their tenant>. */
const CALLS: { list: string; who: Who; path: string }[] = [
  { list: 'stats: top users by views (platform)', who: 'admin', path: '/stats/users?pageSize=10' },
  {
    list: 'stats: search "pupil 4242" (platform)',
    who: 'admin',
    path: '/stats/users?pageSize=10&search=pupil%204242',
  },
  {
    list: 'stats: by name, page 500 (platform)',
    who: 'admin',
    path: '/stats/users?sort=name&order=asc&page=500',
  },
  { list: "stats: the school's top users (owner)", who: 'owner', path: '/stats/users?pageSize=10' },
  { list: 'newsletter: page 1', who: 'admin', path: '/subscribers?page=1&pageSize=50' },
  {
    list: 'newsletter: search "reader4242"',
    who: 'admin',
    path: '/subscribers?page=1&pageSize=50&search=reader4242',
  },
  {
    list: 'newsletter: by e-mail, page 500',
    who: 'admin',
    path: '/subscribers?page=500&pageSize=50&sort=email&order=asc',
  },
  {
    list: 'support: open and answered, page 1',
    who: 'admin',
    path: '/support?page=1&pageSize=50&status=open,answered',
  },
  {
    list: 'support: search "request 1234"',
    who: 'admin',
    path: '/support?page=1&pageSize=50&search=request%201234',
  },
  { list: 'support: by tenant, page 100', who: 'admin', path: '/support?page=100&pageSize=50&sort=tenant' },
  { list: 'links: page 1 (owner, 5,000 links)', who: 'owner', path: '/model/links?page=1&pageSize=20' },
  { list: 'links: search "model 7"', who: 'owner', path: '/model/links?page=1&pageSize=20&search=model%207' },
  { list: 'links: by model, page 200', who: 'owner', path: '/model/links?page=200&pageSize=20&sort=model' },
  { list: 'models: catalogue grid (platform)', who: 'admin', path: '/model/all' },
  { list: 'models: grid (owner)', who: 'owner', path: '/model/all' },
  { list: 'owner users: page 1 (2,000 users)', who: 'owner', path: '/user/all?page=1&pageSize=20' },
  {
    list: 'owner users: search "pupil 42"',
    who: 'owner',
    path: '/user/all?page=1&pageSize=20&search=pupil%2042',
  },
  { list: 'platform users: page 1', who: 'admin', path: '/user/all?page=1&pageSize=20' },
  {
    list: 'platform users: by name, page 500',
    who: 'admin',
    path: '/user/all?page=500&pageSize=20&sort=name&order=asc',
  },
  {
    list: 'platform users: by school, page 500',
    who: 'admin',
    path: '/user/all?page=500&pageSize=20&sort=companyName&order=asc',
  },
  {
    list: 'platform users: search "pupil 4242"',
    who: 'admin',
    path: '/user/all?page=1&pageSize=20&search=pupil%204242',
  },
  {
    list: 'permissions: users by e-mail, page 10',
    who: 'admin',
    path: '/user/all?page=10&pageSize=20&sort=email&order=asc',
  },
  {
    list: 'tenant picker: search "school 42"',
    who: 'admin',
    path: '/tenant/getAllTenants?page=1&pageSize=20&search=school%2042',
  },
];

/** Each list page: who opens it and what shows its first rows. */
const ROWS = 'tbody tr.ant-table-row';
const PAGES: { page: string; who: Who; path: string; rows: string }[] = [
  {
    page: 'statistics (platform)',
    who: 'admin',
    path: '/stats',
    rows: `[data-testid="stats-users"] ${ROWS}`,
  },
  { page: 'newsletter', who: 'admin', path: '/news-letter', rows: ROWS },
  { page: 'support', who: 'admin', path: '/support', rows: ROWS },
  { page: 'platform users', who: 'admin', path: '/users', rows: ROWS },
  { page: 'permissions', who: 'admin', path: '/permissions', rows: ROWS },
  { page: 'models (platform)', who: 'admin', path: '/models', rows: '.model-card' },
  { page: "owner's users list", who: 'owner', path: '/user/settings/users-list', rows: ROWS },
  { page: 'links (owner)', who: 'owner', path: '/user/settings/links', rows: ROWS },
  { page: 'statistics (owner)', who: 'owner', path: '/stats', rows: `[data-testid="stats-users"] ${ROWS}` },
];

/** Signs in through the login form, as the browser tests do (the app writes its own cookies). */
async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  // The page arrives server rendered; the app hydrates it as soon as its code has loaded (README.md, "How a page is rendered").
  await page.getByLabel('Email', { exact: true }).focus();
  await page.waitForFunction(() => {
    const { document } = globalThis as unknown as { document: { querySelector(s: string): unknown } };
    return !document.querySelector('#root[data-server-rendered]');
  });
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 30_000 });
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1]!;
const ms = (x: number) => `${Math.round(x).toLocaleString('en')} ms`;

if (!existsSync(path.join(here, '..', '..', 'web', 'dist', 'index.html')))
  throw new Error('apps/web/dist is missing: run `npm run build` first');

const tmp = mkdtempSync(path.join(os.tmpdir(), 'helix-bench-lists-'));
const stack = await startStack({
  databaseUrl: DATABASE_URL,
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  build: false,
  seed: false,
  quiet: true,
  dataDir: path.join(tmp, 'data'),
  env: {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    SIGNING_SECRET: randomBytes(32).toString('hex'),
    REDIS_PREFIX: `helix-bench-lists-${randomBytes(3).toString('hex')}`,
  },
});
let failed = false;
try {
  const account = (who: Who) => DEMO_ACCOUNTS.find((a) => a.key === who)!;
  const sessions = new Map<Who, { token: string; base: string }>();
  for (const who of ['admin', 'owner'] as const) {
    const { email, password, tenant } = account(who);
    const res = await fetch(`${stack.apiUrl}/api/user/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    if (!res.ok) throw new Error(`login ${who}: ${res.status} ${await res.text()}`);
    const body = (await res.json()) as { apiToken: string };
    sessions.set(who, { token: body.apiToken, base: `${stack.apiUrl}/api/t/${tenant}` });
  }

  if (ONLY !== 'pages') {
    console.log(`\nAPI, through HTTP (${N} calls each, one at a time, after a warm-up)\n`);
    console.log(`| ${'call'.padEnd(42)} | ${'rows/total'.padEnd(14)} | p50      | p95      | goal |`);
    console.log(`| ${'-'.repeat(42)} | ${'-'.repeat(14)} | -------- | -------- | ---- |`);
    for (const call of CALLS) {
      const { token, base } = sessions.get(call.who)!;
      const once = async () => {
        const t = performance.now();
        const res = await fetch(`${base}${call.path}`, { headers: { Authorization: `Bearer ${token}` } });
        const body = (await res.json()) as { rows?: unknown[]; total?: number; models?: unknown[] };
        if (!res.ok) throw new Error(`${call.path}: ${res.status} ${JSON.stringify(body)}`);
        return { ms: performance.now() - t, body };
      };
      const { body } = await once();
      const times: number[] = [];
      for (let i = 0; i < N; i += 1) times.push((await once()).ms);
      const p95 = pct(times, 95);
      const met = p95 <= CALL_P95_MAX_MS;
      if (!met) failed = true;
      const size = body.rows ? `${body.rows.length}/${body.total}` : `${body.models?.length ?? '?'} models`;
      console.log(
        `| ${call.list.padEnd(42)} | ${size.padEnd(14)} | ${ms(pct(times, 50)).padStart(8)} | ${ms(p95).padStart(8)} | ${met ? 'yes' : '**no**'} |`,
      );
    }
  }

  if (ONLY !== 'api') {
    console.log(
      `\nPages in Chromium: navigation until the list's first rows show (${PAGE_RUNS} runs each)\n`,
    );
    console.log(`| ${'page'.padEnd(28)} | median   | worst    | goal |`);
    console.log(`| ${'-'.repeat(28)} | -------- | -------- | ---- |`);
    const browser = await launchChromium();
    try {
      for (const who of ['admin', 'owner'] as const) {
        const context = await browser.newContext({
          baseURL: stack.apiUrl,
          viewport: { width: 1280, height: 860 },
        });
        const page = await context.newPage();
        await logIn(page, account(who).email, account(who).password);
        for (const target of PAGES.filter((p) => p.who === who)) {
          const times: number[] = [];
          for (let i = 0; i <= PAGE_RUNS; i += 1) {
            const t = performance.now();
            await page.goto(`${stack.apiUrl}${target.path}`);
            await page.locator(target.rows).first().waitFor({ timeout: 30_000 });
            // The first run warms the caches (HTTP, the app's chunks); it is not counted.
            if (i > 0) times.push(performance.now() - t);
          }
          const median = pct(times, 50);
          const worst = Math.max(...times);
          const met = median <= RENDER_MAX_MS;
          if (!met) failed = true;
          console.log(
            `| ${target.page.padEnd(28)} | ${ms(median).padStart(8)} | ${ms(worst).padStart(8)} | ${met ? 'yes' : '**no**'} |`,
          );
        }
        await context.close();
      }
    } finally {
      await browser.close();
    }
  }
} finally {
  await stack.stop();
  rmSync(tmp, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
