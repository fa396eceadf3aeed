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
import {
  POLL,
  distance,
  join,
  pupilsMatch,
  selectPart,
  startLesson,
  turn,
  type Seat,
} from './support/lesson-class.ts';

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

/** Live lessons' sockets one API process holds, by role (its helix_lesson_sockets, on its own port). */
async function lessonSocketsOn(api: string): Promise<{ teacher: number; pupil: number }> {
  const res = await fetch(`${api}/metrics`, {
    headers: { authorization: `Bearer ${inject('metricsToken')}` },
  });
  const text = await res.text();
  const held = { teacher: 0, pupil: 0 };
  for (const line of text.split('\n')) {
    const role = /^helix_lesson_sockets\{[^}]*role="(teacher|pupil)"/.exec(line)?.[1] as
      keyof typeof held | undefined;
    if (role) held[role] = Number(line.split(' ').at(-1));
  }
  return held;
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
  const contexts: { close: () => Promise<void> }[] = [];
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
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
  it('a live lesson through nginx: the teacher on one process, pupils on the other, every tablet follows; a stopped process’s pupils reconnect and resync', async () => {
    const names = Object.keys(apis);
    const sockets = async () => Promise.all(names.map(async (name) => lessonSocketsOn(apis[name]!)));
    // The pages through nginx (the viewer frame takes messages from the portal's origin only), so nginx
    // picks each socket's process; each process's metrics say which it took.
    const before = await sockets();
    const teacher = await startLesson(browser);
    contexts.push(teacher.context);
    const pupils: Seat[] = [];
    for (const name of ['Ada', 'Brook', 'Cy']) {
      const pupil = await join(browser, teacher.code, name);
      contexts.push(pupil.context);
      pupils.push(pupil);
    }
    const held = async () =>
      (await sockets()).map((now, i) => ({
        teacher: now.teacher - before[i]!.teacher,
        pupil: now.pupil - before[i]!.pupil,
      }));
    await expect
      .poll(async () => {
        const split = await held();
        return {
          teachers: split.reduce((n, p) => n + p.teacher, 0),
          pupils: split.reduce((n, p) => n + p.pupil, 0),
        };
      }, POLL)
      .toEqual({ teachers: 1, pupils: 3 });
    const split = await held();
    console.log(
      'lesson sockets per API process',
      JSON.stringify(Object.fromEntries(names.map((n, i) => [n, split[i]]))),
    );
    const teacherAt = split.findIndex((p) => p.teacher === 1);
    const other = 1 - teacherAt;
    // At least one pupil's socket is on the process the teacher is not on (nginx: least_conn).
    expect(split[other]!.pupil).toBeGreaterThan(0);

    // The teacher turns the model and selects the nucleus: every tablet, on either process, follows.
    await turn(teacher.page, 160);
    await selectPart(teacher.frame, 'Nucleus');
    const first = await pupilsMatch(teacher.frame, pupils);

    // The process holding pupils (not the teacher's) is stopped mid-lesson (SIGTERM: it drains and
    // closes its sockets; the stack starts it again): its pupils reconnect and resync.
    const stopped = names[other]!;
    const pid = inject('clusterApiPids')[stopped]!;
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGTERM');
    // Meanwhile the teacher turns again and picks another part.
    await turn(teacher.page, -220);
    await selectPart(teacher.frame, 'Mitochondria');
    await expect
      .poll(async () => {
        try {
          process.kill(pid, 0);
          return 'running';
        } catch {
          return 'gone';
        }
      }, POLL)
      .toBe('gone');
    for (const pupil of pupils) {
      await expect
        .poll(() => pupil.page.getByTestId('lesson-state').getAttribute('data-status'), POLL)
        .toBe('live');
    }
    const second = await pupilsMatch(teacher.frame, pupils);
    expect(distance(second.cameraPosition, first.cameraPosition)).toBeGreaterThan(1e-2);
    expect(second.selected).toBe('Mitochondria');
    // Every socket is held again (the stopped process's pupils by whichever process took them; the new
    // process starts from zero), the teacher's never moved.
    await expect
      .poll(async () => {
        const now = await sockets().catch(() => null);
        if (!now) return null;
        return {
          teacherStill: now[teacherAt]!.teacher - before[teacherAt]!.teacher,
          pupils: now[teacherAt]!.pupil - before[teacherAt]!.pupil + now[other]!.pupil,
        };
      }, POLL)
      .toEqual({ teacherStill: 1, pupils: 3 });
    const end = await sockets();
    console.log(
      'after the stop',
      JSON.stringify({ [names[teacherAt]!]: end[teacherAt], [`${stopped} (started again)`]: end[other] }),
    );
  });
});
