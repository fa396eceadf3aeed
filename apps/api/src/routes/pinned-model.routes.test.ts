import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { OfflineCopy, OFFLINE_VIEW_MAX_AGE_DAYS } from '@helix/shared/schemas/pinned-model';
import { CUSTOMER_PLAN_PERMISSIONS, createPlan } from '@helix/server/testing/factories';
import {
  bearer,
  createModel,
  createModelHarness,
  customer,
  glb,
  member,
  type Caller,
  type ModelHarness,
} from '../../test/models.ts';

let h: ModelHarness;

beforeAll(async () => {
  // The limit itself, without the grace band past it (view-usage.routes.test.ts tests the band).
  h = await createModelHarness({ VIEW_GRACE_PERCENT: '0' });
});
afterAll(async () => {
  await h?.close();
});

const post = (caller: Caller, path: string, body: unknown, base = caller.base, app: Express = h.app) =>
  request(app)
    .post(`${base}${path}`)
    .set(bearer(caller.token))
    .send(body as object);

const offlineView = (caller: Caller, body: Record<string, unknown>, app: Express = h.app) =>
  post(caller, '/model/offline-view', body, caller.base, app);

const MINUTE = 60_000;
const DAY_MINUTES = 24 * 60;
const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * MINUTE).toISOString();

/** A device's own id, as the web keeps one (16-64 base64url characters). */
const aDevice = () => randomUUID().replaceAll('-', '');

/** An offline copy the server issued: the model, the copy id and the device it was issued to. */
interface Copy {
  id: number;
  copyId: string;
  deviceId: string;
}

/**
 * Pins `modelId` for `caller` on a device (POST /model/offline-copy); `issuedMinutesAgo` moves the
 * copy's issue time back, as if the device had kept it that long.
 */
async function issueCopy(
  caller: Caller,
  modelId: number,
  opts: { issuedMinutesAgo?: number; deviceId?: string } = {},
): Promise<Copy> {
  const deviceId = opts.deviceId ?? aDevice();
  const res = await post(caller, '/model/offline-copy', { id: modelId, deviceId });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const { copyId } = OfflineCopy.parse(res.body);
  if (opts.issuedMinutesAgo !== undefined) {
    await h.db.offlineCopyGrant.update({
      where: { id: copyId },
      data: { issuedAt: new Date(Date.now() - opts.issuedMinutesAgo * MINUTE) },
    });
  }
  return { id: modelId, copyId, deviceId };
}

/** One view made offline with `copy`, `minutes` ago, with its own key. */
const aView = (copy: Copy, minutes = 0) => ({
  id: copy.id,
  copyId: copy.copyId,
  deviceId: copy.deviceId,
  key: randomUUID(),
  viewedAt: minutesAgo(minutes),
});

type View = ReturnType<typeof aView>;
/** Three views of `copy` an hour apart (the first three hours ago). */
const threeHourly = (copy: Copy): [View, View, View] => [aView(copy, 180), aView(copy, 120), aView(copy, 60)];

async function recorded(filter: { modelId?: number; tenantId?: number }) {
  await h.flush();
  const sum = await h.db.modelViewDaily.aggregate({ where: filter, _sum: { count: true } });
  return sum._sum.count ?? 0;
}

/** Runs `calls` at most `width` at a time; the answers in order. */
async function inBatches<T>(calls: (() => Promise<T>)[], width: number): Promise<T[]> {
  const answers: T[] = [];
  for (let i = 0; i < calls.length; i += width) {
    answers.push(...(await Promise.all(calls.slice(i, i + width).map((call) => call()))));
  }
  return answers;
}

/** A customer whose plan allows `viewLimit` views, refusing more when `validation` is on. */
async function limitedTenant(viewLimit: number, validation: boolean) {
  const plan = await createPlan(h.db, { viewLimit, permissions: CUSTOMER_PLAN_PERMISSIONS });
  const a = await customer(h, { plan });
  await h.db.branding.update({
    where: { tenantId: a.tenant.id },
    data: { additionalViewsValidation: validation },
  });
  return a;
}

describe('POST /model/offline-copy', () => {
  it('answers the copy a device keeps (file URL, viewer origin, features, branding) and counts no view', async () => {
    const a = await customer(h);
    const model = await createModel(h, { name: 'Heart' });
    const deviceId = aDevice();
    const res = await post(a, '/model/offline-copy', { id: model.id, deviceId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const copy = OfflineCopy.parse(res.body);
    expect(copy).toMatchObject({
      id: model.id,
      name: 'Heart',
      urlModelName: model.urlModelName,
      version: model.version,
      viewerOrigin: 'http://viewer.test',
    });
    expect(copy.settings).not.toContain('center_model');
    const url = new URL(copy.fileUrl);
    const file = await request(h.app)
      .get(url.pathname + url.search)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(file.status).toBe(200);
    expect(Buffer.compare(file.body as Buffer, glb())).toBe(0);
    expect(await recorded({ modelId: model.id })).toBe(0);

    // The copy is issued to this user, device and model; pinning again on the device (a new version)
    // answers the same copy id, another device gets its own.
    expect(copy.copyId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const grant = await h.db.offlineCopyGrant.findUniqueOrThrow({ where: { id: copy.copyId } });
    expect(grant).toMatchObject({ tenantId: a.tenant.id, userId: a.user.id, modelId: model.id, deviceId });
    const again = OfflineCopy.parse((await post(a, '/model/offline-copy', { id: model.id, deviceId })).body);
    expect(again.copyId).toBe(copy.copyId);
    const other = OfflineCopy.parse(
      (await post(a, '/model/offline-copy', { id: model.id, deviceId: aDevice() })).body,
    );
    expect(other.copyId).not.toBe(copy.copyId);
  });

  it('refuses what opening the viewer refuses: no session, no Model.view, a model of other tenants, a lapsed plan', async () => {
    const a = await customer(h);
    const b = await customer(h);
    const forB = await createModel(h, { isPublic: false, restrictedTenants: [b.tenant.id] });
    const model = await createModel(h);
    expect(
      (await request(h.app).post(`${a.base}/model/offline-copy`).send({ id: model.id, deviceId: aDevice() }))
        .status,
    ).toBe(401);
    const nobody = await member(h, a.tenant, []);
    expect((await post(nobody, '/model/offline-copy', { id: model.id, deviceId: aDevice() })).status).toBe(
      403,
    );
    expect((await post(a, '/model/offline-copy', { id: forB.id, deviceId: aDevice() })).status).toBe(404);
    expect((await post(a, '/model/offline-copy', { id: model.id, deviceId: aDevice() }, b.base)).status).toBe(
      404,
    );
    const lapsed = await customer(h, { status: 'deactivated' });
    // A lapsed plan grants no permissions, so the route's gate already refuses.
    expect((await post(lapsed, '/model/offline-copy', { id: model.id, deviceId: aDevice() })).status).toBe(
      403,
    );
    for (const body of [
      { id: model.id },
      { id: model.id, deviceId: 'short' },
      { id: model.id, deviceId: 7 },
    ]) {
      expect((await post(a, '/model/offline-copy', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await h.db.offlineCopyGrant.count({ where: { userId: a.user.id } })).toBe(0);
  });
});

describe('POST /model/offline-view', () => {
  it('counts a view once per key, however often and however concurrently it is sent', async () => {
    const a = await customer(h);
    const model = await createModel(h);
    const copy = await issueCopy(a, model.id, { issuedMinutesAgo: 180 });
    const [view, second] = threeHourly(copy);
    const first = await offlineView(a, view);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({ counted: true, duplicate: false });
    const again = await offlineView(a, view);
    expect(again.body).toEqual({ counted: true, duplicate: true });
    expect(await recorded({ modelId: model.id, tenantId: a.tenant.id })).toBe(1);

    // A view of another window (another key) counts; sent ten times at once it still counts once.
    const burst = await Promise.all(Array.from({ length: 10 }, () => offlineView(a, second)));
    expect(burst.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(burst.every((r) => r.body.counted === true)).toBe(true);
    expect(await recorded({ modelId: model.id, tenantId: a.tenant.id })).toBe(2);
    expect(await h.db.offlineView.count({ where: { tenantId: a.tenant.id, outcome: 'counted' } })).toBe(2);
  });

  it('counts once per view window, as online: a second key in a counted window counts nothing', async () => {
    const a = await customer(h);
    const model = await createModel(h);
    const copy = await issueCopy(a, model.id, { issuedMinutesAgo: 180 });
    const [early] = threeHourly(copy);
    expect((await offlineView(a, early)).body).toEqual({ counted: true, duplicate: false });
    // The same minute with a new key (a device replaying its view under fresh keys): not counted.
    const sameWindow = { ...early, key: randomUUID() };
    expect((await offlineView(a, sameWindow)).body).toEqual({ counted: false, duplicate: false });
    // Another device's copy of the same model by the same user: still the user's one view of the window.
    const laptop = await issueCopy(a, model.id, { issuedMinutesAgo: 180 });
    const fromLaptop = { ...aView(laptop), viewedAt: early.viewedAt };
    expect((await offlineView(a, fromLaptop)).body.counted).toBe(false);
    expect(await recorded({ modelId: model.id })).toBe(1);
    expect(await h.db.offlineView.count({ where: { userId: a.user.id } })).toBe(1);
  });

  it('counts nothing for a copy id the server did not issue, or a view made before the copy was issued', async () => {
    const a = await customer(h);
    const model = await createModel(h);
    const invented = { id: model.id, copyId: aDevice(), deviceId: aDevice() };
    const answer = await offlineView(a, aView(invented));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({ counted: false, duplicate: false });
    // Pinned just now: a view stamped an hour ago was not made with this copy.
    const copy = await issueCopy(a, model.id);
    expect((await offlineView(a, aView(copy, 60))).body).toEqual({ counted: false, duplicate: false });
    // Within the clock drift allowed (a device clock a few minutes behind) it is the copy's first view.
    expect((await offlineView(a, aView(copy, 3))).body).toEqual({ counted: true, duplicate: false });
    expect(await recorded({ modelId: model.id })).toBe(1);
    expect(await h.db.offlineView.count({ where: { userId: a.user.id } })).toBe(1);
  });

  it('does not honour a copy issued to another user, another device or for another model', async () => {
    const a = await customer(h);
    const colleague = await member(h, a.tenant, ['User']);
    const b = await customer(h);
    const model = await createModel(h);
    const second = await createModel(h);
    const copy = await issueCopy(a, model.id, { issuedMinutesAgo: 60 });
    const forSecond = await issueCopy(a, second.id, { issuedMinutesAgo: 60 });
    const bCopy = await issueCopy(b, model.id, { issuedMinutesAgo: 60 });
    const refused = [
      [colleague, aView(copy)], // another user of the same tenant sending a's copy
      [b, aView(copy)], // another tenant's user sending a's copy
      [a, { ...aView(copy), deviceId: aDevice() }], // a's copy from another device
      [a, { ...aView(copy), id: second.id }], // a's copy of one model for another
      [a, { ...aView(forSecond), id: model.id }],
      [a, aView(bCopy)], // b's copy sent by a
    ] as const;
    for (const [caller, view] of refused) {
      const res = await offlineView(caller, view);
      expect(res.status, JSON.stringify(view)).toBe(200);
      expect(res.body, JSON.stringify(view)).toEqual({ counted: false, duplicate: false });
    }
    expect(await recorded({ modelId: model.id })).toBe(0);
    expect(await recorded({ modelId: second.id })).toBe(0);
    expect(await h.db.offlineView.count({ where: { modelId: { in: [model.id, second.id] } } })).toBe(0);
    // Each copy is honoured for its own user, device and model.
    expect((await offlineView(a, aView(copy))).body.counted).toBe(true);
    expect((await offlineView(a, aView(forSecond))).body.counted).toBe(true);
    expect((await offlineView(b, aView(bCopy))).body.counted).toBe(true);
  });

  it("1,000 offline-view calls by one member count at most the copy's allowance (one view per window since it was issued)", async () => {
    // Without the per-user rate limit, to measure the allowance alone.
    const app = h.appWith({ OFFLINE_VIEW_RATE_LIMIT_MAX: '100000' });
    const a = await customer(h);
    const user = await member(h, a.tenant, ['User']);
    const model = await createModel(h);
    const hours = 3;
    const copy = await issueCopy(user, model.id, { issuedMinutesAgo: hours * 60 });
    const grant = await h.db.offlineCopyGrant.findUniqueOrThrow({ where: { id: copy.copyId } });
    // 1,000 views, each with its own key, spread over the three hours since the copy was issued.
    const views = Array.from({ length: 1000 }, (_, i) => aView(copy, (hours * 60 * (999 - i)) / 1000));
    const answers = await inBatches(
      views.map((view) => () => offlineView(user, view, app)),
      25,
    );
    expect(answers.filter((r) => r.status !== 200).map((r) => r.status)).toEqual([]);
    const windowMs = h.config.VIEW_WINDOW_SECONDS * 1000;
    const allowance = Math.floor(Date.now() / windowMs) - Math.floor(grant.issuedAt.getTime() / windowMs) + 1;
    const counted = answers.filter((r) => r.body.counted === true).length;
    console.log(
      `offline-view: 1000 calls over ${hours} h, window ${h.config.VIEW_WINDOW_SECONDS} s: counted ${counted}, allowance ${allowance}`,
    );
    expect(await recorded({ modelId: model.id, tenantId: a.tenant.id })).toBe(counted);
    expect(counted).toBeLessThanOrEqual(allowance);
    // One view counts in each window the views' own times fall in (every window but, at times, the issue
    // time's or today's when a window edge falls in the 11 s before the first view or since the last one).
    const touched = new Set(
      views.map((view) =>
        Math.floor(Math.max(Date.parse(view.viewedAt), grant.issuedAt.getTime()) / windowMs),
      ),
    );
    expect(touched.size).toBeGreaterThanOrEqual(allowance - 2);
    expect(counted).toBe(touched.size);

    // Replays of the same keys count nothing more.
    const replays = await inBatches(
      views.slice(0, 100).map((view) => () => offlineView(user, view, app)),
      25,
    );
    expect(replays.every((r) => r.status === 200)).toBe(true);
    expect(await recorded({ modelId: model.id, tenantId: a.tenant.id })).toBe(counted);
  }, 600_000);

  it('limits calls per user: 429 with the catalogue message and Retry-After, other users unaffected', async () => {
    const a = await customer(h);
    const user = await member(h, a.tenant, ['User']);
    const colleague = await member(h, a.tenant, ['User']);
    const model = await createModel(h);
    const copy = await issueCopy(user, model.id);
    const limit = h.config.OFFLINE_VIEW_RATE_LIMIT_MAX;
    const answers = await inBatches(
      Array.from({ length: limit + 30 }, () => () => offlineView(user, aView(copy))),
      20,
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    const tooMany = answers.find((r) => r.status === 429);
    expect(tooMany?.body).toMatchObject({ statusCode: 429, message: MSG.offlineViewsTooMany });
    expect(Number(tooMany?.headers['retry-after'])).toBeGreaterThan(0);
    // Invented calls use up the same allowance: well-formed or not, they are slowed down.
    const junk = await offlineView(user, { id: model.id });
    expect(junk.status).toBe(429);
    // The limit is the user's: a colleague in the same tenant still sends views.
    const theirs = await issueCopy(colleague, model.id);
    expect((await offlineView(colleague, aView(theirs))).body.counted).toBe(true);
    // The user's 120 accepted calls were one window of one copy: one view.
    expect(await recorded({ modelId: model.id })).toBe(2);
  });

  it('counts an offline view beside an online one of the same user (each is its own view)', async () => {
    const a = await customer(h);
    const model = await createModel(h);
    const ticketUrl = (await post(a, '/model/viewer-url', { id: model.id })).body.url as string;
    const params = Object.fromEntries(new URL(ticketUrl).searchParams.entries());
    expect((await request(h.app).get('/api/viewer/model').query(params)).status).toBe(200);
    const copy = await issueCopy(a, model.id);
    expect((await offlineView(a, aView(copy))).body.counted).toBe(true);
    expect(await recorded({ modelId: model.id, tenantId: a.tenant.id })).toBe(2);
  });

  it('honours the view limit: past it with additionalViewsValidation on, a view is refused once and for all', async () => {
    const a = await limitedTenant(2, true);
    const model = await createModel(h);
    const copy = await issueCopy(a, model.id, { issuedMinutesAgo: 240 });
    const [one, two, over] = threeHourly(copy);
    expect((await offlineView(a, one)).body.counted).toBe(true);
    expect((await offlineView(a, two)).body.counted).toBe(true);
    const refused = await offlineView(a, over);
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({ counted: false, duplicate: false });
    expect((await offlineView(a, over)).body).toEqual({ counted: false, duplicate: true });
    expect(await recorded({ tenantId: a.tenant.id })).toBe(2);

    // Online loads see the same count: the limit is shared.
    const url = (await post(a, '/model/viewer-url', { id: model.id })).body.url as string;
    const online = await request(h.app)
      .get('/api/viewer/model')
      .query(Object.fromEntries(new URL(url).searchParams));
    expect(online.status).toBe(429);
  });

  it('with additionalViewsValidation off, views past the limit are counted (as additional views)', async () => {
    const a = await limitedTenant(1, false);
    const model = await createModel(h);
    const copy = await issueCopy(a, model.id, { issuedMinutesAgo: 240 });
    for (const view of threeHourly(copy)) expect((await offlineView(a, view)).body.counted).toBe(true);
    expect(await recorded({ tenantId: a.tenant.id })).toBe(3);
  });

  it('checks the session, the tenant, the permission and the model', async () => {
    const a = await customer(h);
    const b = await customer(h);
    const model = await createModel(h);
    const forB = await createModel(h, { isPublic: false, restrictedTenants: [b.tenant.id] });
    const copy = await issueCopy(a, model.id);
    const anonymous = await request(h.app).post(`${a.base}/model/offline-view`).send(aView(copy));
    expect(anonymous.status).toBe(401);
    // Another tenant's path, another tenant's restricted model, no Model.view, a missing model.
    expect((await post(b, '/model/offline-view', aView(copy), a.base)).status).toBe(404);
    expect((await offlineView(a, { ...aView(copy), id: forB.id })).status).toBe(404);
    expect((await offlineView(await member(h, a.tenant, []), aView(copy))).status).toBe(403);
    expect((await offlineView(a, { ...aView(copy), id: 2_000_000_000 })).status).toBe(404);
    const lapsed = await customer(h, { status: 'deactivated' });
    const view = aView(copy);
    expect((await offlineView(lapsed, view)).status).toBe(403);
    expect(await h.db.offlineView.count({ where: { key: view.key } })).toBe(0);
    expect(await recorded({ modelId: forB.id })).toBe(0);
    expect(await recorded({ modelId: model.id })).toBe(0);
  });

  it('forgets keys once no resend of them could be accepted any more (older than the age limit and a day)', async () => {
    const a = await customer(h);
    const b = await customer(h);
    const model = await createModel(h);
    const copy = await issueCopy(a, model.id, { issuedMinutesAgo: OFFLINE_VIEW_MAX_AGE_DAYS * DAY_MINUTES });
    const day = 24 * 60 * 60 * 1000;
    const old = (tenantId: number, userId: number, ageDays: number) => ({
      key: randomUUID(),
      tenantId,
      userId,
      modelId: model.id,
      viewedAt: new Date(Date.now() - ageDays * day),
      createdAt: new Date(Date.now() - ageDays * day),
      outcome: 'counted',
    });
    const [stale, recent, otherTenant] = [
      old(a.tenant.id, a.user.id, OFFLINE_VIEW_MAX_AGE_DAYS + 2),
      old(a.tenant.id, a.user.id, OFFLINE_VIEW_MAX_AGE_DAYS - 1),
      old(b.tenant.id, b.user.id, OFFLINE_VIEW_MAX_AGE_DAYS + 2),
    ];
    await h.db.offlineView.createMany({ data: [stale, recent, otherTenant] });
    expect((await offlineView(a, aView(copy))).status).toBe(200);
    const left = await h.db.offlineView.findMany({
      where: { key: { in: [stale.key, recent.key, otherTenant.key] } },
    });
    expect(left.map((r) => r.key).sort()).toEqual([recent.key, otherTenant.key].sort());
    // The kept one still answers a resend as already counted.
    const resend = { ...aView(copy), key: recent.key, viewedAt: recent.viewedAt.toISOString() };
    expect((await offlineView(a, resend)).body).toEqual({ counted: true, duplicate: true });
  });

  it('refuses a key already used for another user or model (409) and counts nothing', async () => {
    const a = await customer(h);
    const other = await member(h, a.tenant, ['User']);
    const model = await createModel(h);
    const second = await createModel(h);
    const copy = await issueCopy(a, model.id);
    const view = aView(copy);
    expect((await offlineView(a, view)).status).toBe(200);
    const theirs = await issueCopy(other, model.id);
    const reusedByOther = await offlineView(other, { ...aView(theirs), key: view.key });
    expect(reusedByOther.status).toBe(409);
    expect(reusedByOther.body.message).toBe(MSG.offlineViewKeyReused);
    const forSecond = await issueCopy(a, second.id);
    expect((await offlineView(a, { ...aView(forSecond), key: view.key })).status).toBe(409);
    expect(await recorded({ tenantId: a.tenant.id })).toBe(1);
  });

  it('answers bad input with a 4xx, never a 500, and counts nothing', async () => {
    const a = await customer(h);
    const model = await createModel(h);
    const copy = await issueCopy(a, model.id, { issuedMinutesAgo: OFFLINE_VIEW_MAX_AGE_DAYS * DAY_MINUTES });
    const day = DAY_MINUTES;
    const valid = () => aView(copy);
    const bad: unknown[] = [
      {},
      { ...valid(), viewedAt: undefined },
      { ...valid(), key: undefined },
      { ...valid(), copyId: undefined },
      { ...valid(), deviceId: undefined },
      { ...valid(), key: 'short' },
      { ...valid(), key: 'has spaces in it, not allowed' },
      { ...valid(), key: 'x'.repeat(65) },
      { ...valid(), copyId: 'short' },
      { ...valid(), copyId: 'x'.repeat(65) },
      { ...valid(), deviceId: 'has spaces in it, not allowed' },
      { ...valid(), deviceId: 12 },
      { ...valid(), viewedAt: 'yesterday' },
      { ...valid(), viewedAt: 1_700_000_000_000 },
      { ...valid(), viewedAt: minutesAgo(-60) },
      { ...valid(), viewedAt: minutesAgo(OFFLINE_VIEW_MAX_AGE_DAYS * day + 60) },
      { ...valid(), id: '1' },
      { ...valid(), id: 0 },
      { ...valid(), id: 2 ** 40 },
      { ...valid(), extra: true },
      [],
      'text',
    ];
    for (const body of bad) {
      const res = await offlineView(a, body as Record<string, unknown>);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      expect(res.body).toMatchObject({ statusCode: res.status, message: expect.any(String) });
    }
    const future = await offlineView(a, { ...valid(), viewedAt: minutesAgo(-60) });
    expect(JSON.stringify(future.body)).toContain(MSG.offlineViewInFuture);
    const old = await offlineView(a, {
      ...valid(),
      viewedAt: minutesAgo(OFFLINE_VIEW_MAX_AGE_DAYS * day + 60),
    });
    expect(JSON.stringify(old.body)).toContain(MSG.offlineViewTooOld(OFFLINE_VIEW_MAX_AGE_DAYS));
    expect(JSON.stringify((await offlineView(a, { ...valid(), copyId: 'short' })).body)).toContain(
      MSG.offlineCopyIdRule,
    );
    // A view a week old (within the limit) and one a minute "in the future" (clock drift) still count.
    expect((await offlineView(a, { ...valid(), viewedAt: minutesAgo(7 * day) })).body.counted).toBe(true);
    expect((await offlineView(a, { ...valid(), viewedAt: minutesAgo(-1) })).body.counted).toBe(true);
    expect(await recorded({ tenantId: a.tenant.id })).toBe(2);
  });
});
