import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MSG } from '@helix/shared';
import { SupportRequestCreated, SupportRequestList } from '@helix/shared/schemas/support';
import { SUPPORT_RATE_LIMIT, SUPPORT_TARGETS } from '@helix/shared/support';
import { CUSTOMER_PLAN_PERMISSIONS, createPlan } from '@helix/server/testing/factories';
import type { Plan } from '@helix/server/db';
import {
  bearer,
  createModelHarness,
  customer,
  member,
  platformAdmin,
  png,
  type Caller,
  type ModelHarness,
} from '../../test/models.ts';
import { startMailSink, type SunkMail } from '../../test/mail-sink.ts';

const SUPPORT_EMAIL = 'help-desk@helix.test';

let h: ModelHarness;
let sink: Awaited<ReturnType<typeof startMailSink>>;
let fastTrackPlan: Plan;
let standardPlan: Plan;
let admin: Caller;

beforeAll(async () => {
  sink = await startMailSink();
  h = await createModelHarness({ SUPPORT_EMAIL, SMTP_URL: sink.url }, ['images', 'email']);
  fastTrackPlan = await createPlan(h.db, {
    name: 'Enterprise Test',
    fasttrackCustomerSupport: true,
    permissions: CUSTOMER_PLAN_PERMISSIONS,
  });
  standardPlan = await createPlan(h.db, { name: 'Individual Test', permissions: CUSTOMER_PLAN_PERMISSIONS });
  admin = await platformAdmin(h);
});
afterAll(async () => {
  await h?.close();
  await sink?.stop();
});

/** POST /support as multipart/form-data (what the Help form sends). */
function send(
  caller: Caller | null,
  fields: Record<string, string>,
  screenshot?: Buffer,
  base = caller?.base,
) {
  let req = request(h.app).post(`${base}/support`);
  if (caller) req = req.set(bearer(caller.token));
  for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
  if (screenshot) req = req.attach('screenshot', screenshot, 'screen.png');
  return req;
}

/** Headers unfolded and quoted-printable soft breaks removed, so subjects and lines read whole. */
const readable = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/\r?\n[ \t]+/g, ' ');
const subjectOf = (mail: SunkMail) => /^Subject: (.*)$/m.exec(readable(mail.raw))?.[1]?.trim() ?? '';

/** The two e-mails of one request (support address and confirmation), once both arrived. */
async function mailsOf(requestId: number) {
  const tag = `#${requestId}`;
  const find = () =>
    sink.mails.filter((m) => subjectOf(m).includes(`${tag}:`) || subjectOf(m).includes(`${tag} `));
  while (find().length < 2) await sink.waitFor(sink.mails.length + 1);
  const mails = find();
  return {
    team: mails.filter((m) => m.to.includes(SUPPORT_EMAIL)),
    user: mails.filter((m) => !m.to.includes(SUPPORT_EMAIL)),
  };
}

describe('POST /support', () => {
  it("marks a fast-track tenant's request priority, e-mails it with tenant, plan and user, and confirms to the user", async () => {
    const owner = await customer(h, { plan: fastTrackPlan, name: 'Springfield Academy' });
    const res = await send(owner, {
      subject: 'Cell model will not load',
      message: 'It spins.\nThen nothing.',
    });
    expect(res.status).toBe(201);
    const body = SupportRequestCreated.parse(res.body);
    expect(body.message).toBe(MSG.supportRequestSent(SUPPORT_TARGETS.priority.label));
    expect(body.request).toMatchObject({
      priority: true,
      target_hours: SUPPORT_TARGETS.priority.hours,
      status: 'open',
      plan: 'Enterprise Test',
      message: 'It spins.\nThen nothing.',
    });

    const { team, user } = await mailsOf(body.request.id);
    expect(team).toHaveLength(1);
    expect(user).toHaveLength(1);
    expect(subjectOf(team[0]!)).toBe(
      `[Priority] Support request #${body.request.id} (answer within 4 business hours): Cell model will not load`,
    );
    const text = readable(team[0]!.raw);
    expect(text).toContain('Tenant: Springfield Academy');
    expect(text).toContain('Plan: Enterprise Test');
    expect(text).toContain(owner.user.email);
    expect(text).toMatch(/^X-Priority: 1/m);
    expect(user[0]!.to).toEqual([owner.user.email]);
    expect(subjectOf(user[0]!)).toContain(`support request #${body.request.id}`);
    expect(readable(user[0]!.raw)).toContain('4 business hours');
    // The markers are written right after the SMTP server accepted each e-mail.
    await vi.waitFor(
      async () => {
        const stored = await h.db.supportRequest.findUniqueOrThrow({ where: { id: body.request.id } });
        expect(stored.supportMailSentAt).not.toBeNull();
        expect(stored.confirmationMailSentAt).not.toBeNull();
      },
      { timeout: 60_000, interval: 50 },
    );
  });

  it('gives the standard target to a plan without fast-track support', async () => {
    const owner = await customer(h, { plan: standardPlan });
    const res = await send(owner, { subject: 'A question', message: 'How do I embed?' });
    expect(res.status).toBe(201);
    const body = SupportRequestCreated.parse(res.body);
    expect(body.request).toMatchObject({
      priority: false,
      target: '2 business days',
      plan: 'Individual Test',
    });
    expect(body.message).toBe(MSG.supportRequestSent('2 business days'));
    const { team } = await mailsOf(body.request.id);
    expect(subjectOf(team[0]!)).toBe(
      `Support request #${body.request.id} (answer within 2 business days): A question`,
    );
    expect(readable(team[0]!.raw)).not.toMatch(/^X-Priority: 1/m);
  });

  it('gives the standard target to a user whose roles lack Customersupport on a fast-track plan', async () => {
    const owner = await customer(h, { plan: fastTrackPlan });
    const plainUser = await member(h, owner.tenant, ['User']);
    const res = await send(plainUser, { subject: 'Help', message: 'Please' });
    expect(res.status).toBe(201);
    expect(res.body.request).toMatchObject({ priority: false, target_hours: SUPPORT_TARGETS.standard.hours });
  });

  it('takes the priority away at the next request after a downgrade or a lapsed plan', async () => {
    const owner = await customer(h, { plan: fastTrackPlan });
    const first = await send(owner, { subject: 'Before', message: 'On Enterprise' });
    expect(first.body.request.priority).toBe(true);

    await h.db.tenantSubscription.update({
      where: { tenantId: owner.tenant.id },
      data: { planId: standardPlan.id },
    });
    const second = await send(owner, { subject: 'After', message: 'Downgraded' });
    expect(second.status).toBe(201);
    expect(second.body.request).toMatchObject({ priority: false, plan: 'Individual Test' });

    await h.db.tenantSubscription.update({
      where: { tenantId: owner.tenant.id },
      data: { planId: fastTrackPlan.id, status: 'deactivated', activePayment: false },
    });
    const third = await send(owner, { subject: 'Lapsed', message: 'Deactivated' });
    expect(third.status).toBe(201);
    expect(third.body.request.priority).toBe(false);
    // The earlier request keeps what it was promised.
    const stored = await h.db.supportRequest.findUniqueOrThrow({ where: { id: first.body.request.id } });
    expect(stored.priority).toBe(true);
  });

  it('stores a screenshot checked by content, attaches it to the support e-mail and lets only platform admins read it', async () => {
    const owner = await customer(h, { plan: fastTrackPlan });
    const res = await send(owner, { subject: 'Look', message: 'See the picture' }, await png(800, 600));
    expect(res.status).toBe(201);
    expect(res.body.request.has_screenshot).toBe(true);
    const stored = await h.db.supportRequest.findUniqueOrThrow({ where: { id: res.body.request.id } });
    expect(stored.screenshotKey).toMatch(/^images\/screenshot-[A-Za-z0-9_-]+\.webp$/);
    const { team } = await mailsOf(res.body.request.id);
    expect(team[0]!.raw).toContain(`filename=screenshot-${res.body.request.id}.webp`);

    const url = `${admin.base}/support/${res.body.request.id}/screenshot`;
    const read = await request(h.app).get(url).set(bearer(admin.token)).buffer(true);
    expect(read.status).toBe(200);
    expect(read.headers['content-type']).toBe('image/webp');
    // Not on the public image path, and not for the customer.
    const name = stored.screenshotKey!.slice('images/'.length);
    expect((await request(h.app).get(`/api/files/images/${name}`)).status).toBe(404);
    const asOwner = await request(h.app)
      .get(`${owner.base}/support/${res.body.request.id}/screenshot`)
      .set(bearer(owner.token));
    expect(asOwner.status).toBe(403);
  });

  it('refuses bad input with a clear 400 and stores nothing', async () => {
    const owner = await customer(h, { plan: standardPlan });
    const before = await h.db.supportRequest.count({ where: { userId: owner.user.id } });

    const noSubject = await send(owner, { subject: '  ', message: 'x' });
    expect(noSubject.status).toBe(400);
    expect(noSubject.body.errors).toMatchObject({ subject: MSG.supportSubjectRequired });

    const noMessage = await send(owner, { subject: 'x' });
    expect(noMessage.status).toBe(400);
    expect(noMessage.body.errors).toMatchObject({ message: MSG.supportMessageRequired });

    const tooLong = await send(owner, { subject: 'x', message: 'y'.repeat(5001) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toMatchObject({ message: MSG.tooLong(5000) });

    const extra = await send(owner, { subject: 'x', message: 'y', priority: 'true' });
    expect(extra.status).toBe(400);

    const notImage = await send(
      owner,
      { subject: 'x', message: 'y' },
      Buffer.from('plain text, not a picture'),
    );
    expect(notImage.status).toBe(400);
    expect(notImage.body.errors).toMatchObject({ screenshot: MSG.imageTypeNotAllowed });

    const badDataUrl = await send(owner, { subject: 'x', message: 'y', screenshot: 'not a data url' });
    expect(badDataUrl.status).toBe(400);
    expect(badDataUrl.body.errors).toMatchObject({ screenshot: MSG.imageTypeNotAllowed });

    const json = await request(h.app)
      .post(`${owner.base}/support`)
      .set(bearer(owner.token))
      .send({ subject: 'x', message: 'nul \u0000 here' });
    expect(json.status).toBe(400);

    expect(await h.db.supportRequest.count({ where: { userId: owner.user.id } })).toBe(before);
  });

  it('needs a session (401) and the caller’s own tenant path (404)', async () => {
    const owner = await customer(h, { plan: standardPlan });
    const other = await customer(h, { plan: standardPlan });
    expect((await send(null, { subject: 'x', message: 'y' }, undefined, owner.base)).status).toBe(401);
    expect((await send(other, { subject: 'x', message: 'y' }, undefined, owner.base)).status).toBe(404);
  });

  it(`limits each user to ${SUPPORT_RATE_LIMIT.limit} requests an hour with a clear 429`, async () => {
    const owner = await customer(h, { plan: standardPlan });
    const colleague = await member(h, owner.tenant, ['User']);
    for (let i = 0; i < SUPPORT_RATE_LIMIT.limit; i += 1) {
      expect((await send(owner, { subject: `Try ${i}`, message: 'again' })).status).toBe(201);
    }
    // A bad request does not use up the quota, but once it is used up even a good one is refused.
    const limited = await send(owner, { subject: 'One more', message: 'please' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ statusCode: 429, message: MSG.supportTooMany });
    expect(await h.db.supportRequest.count({ where: { userId: owner.user.id } })).toBe(
      SUPPORT_RATE_LIMIT.limit,
    );
    // Counted per user: a colleague on the same tenant (and address) still gets through.
    expect((await send(colleague, { subject: 'Mine', message: 'works' })).status).toBe(201);
  });
});

describe('the platform admin list', () => {
  it('is for platform admins only', async () => {
    const owner = await customer(h, { plan: fastTrackPlan });
    expect((await request(h.app).get(`${owner.base}/support`).set(bearer(owner.token))).status).toBe(403);
    const status = await request(h.app)
      .post(`${owner.base}/support/1/status`)
      .set(bearer(owner.token))
      .send({ status: 'closed' });
    expect(status.status).toBe(403);
    expect((await request(h.app).get(`${admin.base}/support`)).status).toBe(401);
  });

  it('lists priority first, filters by status and priority, sorts, and changes the status', async () => {
    const fast = await customer(h, { plan: fastTrackPlan, name: 'Zeta School' });
    const slow = await customer(h, { plan: standardPlan, name: 'Alpha College' });
    const a = (await send(slow, { subject: 'Standard one', message: 'x' })).body.request.id as number;
    const b = (await send(fast, { subject: 'Priority one', message: 'x' })).body.request.id as number;

    const list = async (query = '') => {
      const res = await request(h.app).get(`${admin.base}/support${query}`).set(bearer(admin.token));
      expect(res.status).toBe(200);
      return SupportRequestList.parse(res.body);
    };
    const all = await list();
    const firstStandard = all.findIndex((r) => !r.priority);
    expect(all.slice(0, firstStandard).every((r) => r.priority)).toBe(true);
    expect(all.slice(firstStandard).every((r) => !r.priority)).toBe(true);
    expect(all.find((r) => r.id === b)).toMatchObject({
      tenant: { name: 'Zeta School' },
      plan: 'Enterprise Test',
      priority: true,
    });
    // Oldest first within a tier by default, newest first on request.
    const standardIds = all.filter((r) => !r.priority).map((r) => r.id);
    expect(standardIds).toEqual([...standardIds].sort((x, y) => x - y));
    const desc = (await list('?order=desc')).filter((r) => !r.priority).map((r) => r.id);
    expect(desc).toEqual([...standardIds].reverse());
    const byTenant = (await list('?sort=tenant&priority=false')).map((r) => r.tenant.name);
    expect(byTenant).toEqual([...byTenant].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));

    expect((await list('?priority=true')).every((r) => r.priority)).toBe(true);
    expect((await list('?priority=false')).some((r) => r.id === a)).toBe(true);

    const changed = await request(h.app)
      .post(`${admin.base}/support/${a}/status`)
      .set(bearer(admin.token))
      .send({ status: 'answered' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: a, status: 'answered' });
    expect((await list('?status=answered')).map((r) => r.id)).toContain(a);
    expect((await list('?status=open')).map((r) => r.id)).not.toContain(a);
  });

  it('refuses a bad filter, status or id (400) and a missing request (404)', async () => {
    const get = (q: string) => request(h.app).get(`${admin.base}/support${q}`).set(bearer(admin.token));
    expect((await get('?status=pending')).status).toBe(400);
    expect((await get('?priority=maybe')).status).toBe(400);
    expect((await get('?sort=password')).status).toBe(400);
    const post = (id: string, body: object) =>
      request(h.app).post(`${admin.base}/support/${id}/status`).set(bearer(admin.token)).send(body);
    expect((await post('1', { status: 'lost' })).status).toBe(400);
    expect((await post('abc', { status: 'closed' })).status).toBe(400);
    expect((await post('99999999', { status: 'closed' })).status).toBe(404);
  });
});
