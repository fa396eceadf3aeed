import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { Db } from '@helix/server/db';
import { createTestDb } from '@helix/server/testing/test-db';
import { createTenant, createUser, PASSWORD } from '@helix/server/testing/factories';
import { DEMO, expectPath, logIn } from './support/accounts.ts';
import { appUrl, launchBrowser, newPage } from './support/browser.ts';

/**
 * Across the cluster's processes (`npm run test:e2e:cluster`, HELIX_E2E_CLUSTER=1: two API processes
 * and two workers behind nginx). Requests are pinned to one API process or the other through each
 * process's own port. Skipped by `npm run test:e2e` (one process of each).
 */
const apis = inject('clusterApis');
const [one, two] = Object.values(apis);

const json = (token?: string) => ({
  'content-type': 'application/json',
  ...(token ? { authorization: `Bearer ${token}` } : {}),
});
async function post(base: string, route: string, body: unknown, token?: string) {
  const res = await fetch(`${base}${route}`, {
    method: 'POST',
    headers: json(token),
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
}
const get = async (base: string, route: string, token: string, headers: Record<string, string> = {}) => {
  const res = await fetch(`${base}${route}`, { headers: { ...json(token), ...headers } });
  await res.arrayBuffer();
  return res.status;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Completed jobs of a family on one worker, from its metrics. */
async function completedJobs(metricsUrl: string, family: string): Promise<number> {
  const res = await fetch(metricsUrl, { headers: { authorization: `Bearer ${inject('metricsToken')}` } });
  const text = await res.text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (
      line.startsWith('helix_jobs_total{') &&
      line.includes(`family="${family}"`) &&
      line.includes('outcome="completed"')
    )
      sum += Number(line.split(' ').at(-1));
  }
  return sum;
}

/** Caught e-mails per recipient (the test SMTP server writes one .eml per message). */
function mailsPerAddress(): Map<string, number> {
  const dir = inject('mailDir');
  const counts = new Map<string, number>();
  if (!existsSync(dir)) return counts;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.eml'))) {
    const to = /^To: (.*)$/im
      .exec(readFileSync(path.join(dir, file), 'utf8'))?.[1]
      ?.trim()
      .toLowerCase();
    if (to) counts.set(to.replace(/^.*<|>$/g, ''), (counts.get(to.replace(/^.*<|>$/g, '')) ?? 0) + 1);
  }
  return counts;
}

describe.skipIf(!one || !two)('across the cluster’s processes', () => {
  let browser: Browser;
  let db: Db;
  beforeAll(async () => {
    browser = await launchBrowser();
    db = createTestDb(inject('databaseUrl'));
  });
  afterAll(async () => {
    await browser?.close();
    await db?.$disconnect();
  });

  it('a session made on one API process works on the other, and a logout there ends it on both', async () => {
    const login = await post(one!, '/api/user/login', DEMO.owner);
    expect(login.status).toBe(200);
    const token = login.body.apiToken as string;
    for (const api of [one!, two!]) expect(await get(api, '/api/t/demo/user/info', token)).toBe(200);
    expect((await post(two!, '/api/t/demo/user/logout', {}, token)).status).toBe(204);
    for (const api of [one!, two!]) expect(await get(api, '/api/t/demo/user/info', token)).toBe(401);

    // The browser's session (made through nginx, on whichever process) works on both processes.
    const { context, page } = await newPage(browser);
    await logIn(page, DEMO.owner.email, DEMO.owner.password);
    await expectPath(page, /^\/(user|models|home|$)/);
    // The web app keeps the session's token in its `apiToken` cookie and sends it as a bearer token.
    const browserToken = (await context.cookies(appUrl('/'))).find((c) => c.name === 'apiToken')?.value;
    expect(browserToken).toBeTruthy();
    for (const api of [one!, two!]) expect(await get(api, '/api/t/demo/user/info', browserToken!)).toBe(200);
    await context.close();
  });

  it('counts views exactly when the loads of one link alternate between the processes', async () => {
    const { apiToken } = (await post(one!, '/api/user/login', DEMO.owner)).body as { apiToken: string };
    const listing = await fetch(`${two}/api/t/demo/model/all`, { headers: json(apiToken) });
    const { models } = (await listing.json()) as { models: { id: number; urlModelName?: string }[] };
    const model = await db.model.findUniqueOrThrow({ where: { id: models[0]!.id } });
    const made = await post(two!, '/api/t/demo/model/embed', { id: model.id, settings: [] }, apiToken);
    expect(made.status).toBe(200);
    const token = made.body.token as string;
    const views = async () =>
      (await db.modelViewDaily.aggregate({ where: { modelId: model.id }, _sum: { count: true } }))._sum
        .count ?? 0;
    const before = await views();
    const LOADS = 20;
    for (let i = 0; i < LOADS; i += 1) {
      // The page's detail call on one process, the viewer's model lookup on the other.
      const [first, second] = i % 2 ? [one!, two!] : [two!, one!];
      const detail = await post(first, '/api/model/embed/detail', { token });
      expect(detail.status).toBe(200);
      const query = new URLSearchParams({
        model: model.urlModelName,
        subscription: token,
        currentmode: 'embedding',
        version: '1',
        viewer: detail.body.viewer as string,
      });
      expect(
        await get(second, `/api/viewer/model?${query.toString()}`, '', { origin: inject('viewerUrl') }),
      ).toBe(200);
      // The same viewer reloading on the other process is not counted again.
      if (i === 0) {
        expect(
          await get(first, `/api/viewer/model?${query.toString()}`, '', { origin: inject('viewerUrl') }),
        ).toBe(200);
      }
    }
    // The workers flush every 2 s; then nothing more may come.
    for (let waited = 0; waited < 20_000 && (await views()) < before + LOADS; waited += 500) await sleep(500);
    await sleep(2500);
    expect((await views()) - before).toBe(LOADS);
  });

  it('shares a bulk invite between both workers, every e-mail exactly once', async () => {
    const ROWS = 150;
    const plan = await db.plan.findUniqueOrThrow({ where: { id: 8 } });
    const tenant = await createTenant(db, { plan, name: `Cluster school ${randomBytes(2).toString('hex')}` });
    await db.tenantSubscription.update({ where: { tenantId: tenant.id }, data: { userLimit: ROWS + 50 } });
    const email = `owner.${tenant.domainPrefix}@example.com`;
    await createUser(db, { tenant, email, name: 'Cluster owner', isOwner: true, roles: ['Admin'] });
    // Logged in on one process, the invite sent through the other.
    const { apiToken } = (await post(one!, '/api/user/login', { email, password: PASSWORD })).body as {
      apiToken: string;
    };
    const workers = inject('workerMetrics');
    const jobsBefore = await Promise.all(workers.map((url) => completedJobs(url, 'bulk-invite')));
    const tag = randomBytes(3).toString('hex');
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      name: `Shared ${i}`,
      email: `shared-${tag}-${i}@example.com`,
    }));
    const res = await post(two!, `/api/t/${tenant.domainPrefix}/user/bulk-invite`, { users: rows }, apiToken);
    expect(res.status).toBe(202);
    const batch = () => db.bulkInviteBatch.findUniqueOrThrow({ where: { id: res.body.batchId as number } });
    for (let waited = 0; waited < 60_000 && (await batch()).status !== 'done'; waited += 250)
      await sleep(250);
    await sleep(1500);
    expect(await batch()).toMatchObject({ status: 'done', processed: ROWS, failed: 0 });
    const counts = mailsPerAddress();
    expect(
      rows.filter((r) => counts.get(r.email) !== 1).map((r) => `${r.email}: ${counts.get(r.email) ?? 0}`),
    ).toEqual([]);
    const jobsAfter = await Promise.all(workers.map((url) => completedJobs(url, 'bulk-invite')));
    const perWorker = jobsAfter.map((n, i) => n - jobsBefore[i]!);
    expect(perWorker.length).toBe(2);
    // Both workers took rows of the batch.
    for (const n of perWorker) expect(n).toBeGreaterThan(0);
  });
});
