import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { signUnsubscribeToken } from '@helix/server/newsletter/unsubscribe-token';
import { seedRoles } from '@helix/server/testing/factories';
import { createHarness, type Harness } from '../../test/harness.ts';
import { bearer, customer, member, platformAdmin, type Caller } from '../../test/models.ts';

let h: Harness;
let admin: Caller;
let owner: Caller;
let plainUser: Caller;

beforeAll(async () => {
  h = await createHarness();
  await seedRoles(h.db);
  admin = await platformAdmin(h);
  owner = await customer(h);
  plainUser = await member(h, owner.tenant, ['User']);
});
afterAll(async () => {
  await h?.close();
});

const subscribers = (caller: Caller, base = caller.base) =>
  request(h.app).get(`${base}/subscribers`).set(bearer(caller.token));

describe('GET /subscribers', () => {
  it('is for platform admins: owner and user 403, another tenant 404, no session 401', async () => {
    expect((await subscribers(owner)).status).toBe(403);
    expect((await subscribers(plainUser)).status).toBe(403);
    expect((await subscribers(owner, admin.base)).status).toBe(404);
    expect((await request(h.app).get(`${admin.base}/subscribers`)).status).toBe(401);
  });

  it('lists sign-up opt-ins once each, newest first', async () => {
    const stamp = Date.now();
    const register = (userName: string, email: string, emailstatus: boolean) =>
      request(h.app)
        .post('/api/user/register')
        .send({ name: 'Reader', user_name: userName, email, password: 'a good password', emailstatus });
    expect((await register(`readera${stamp % 100000}`, `reader-a-${stamp}@example.test`, true)).status).toBe(
      201,
    );
    expect((await register(`readerb${stamp % 100000}`, `reader-b-${stamp}@example.test`, false)).status).toBe(
      201,
    );
    // The same address again (another opt-in path) stays one row.
    await h.db.newsletterSubscriber.upsert({
      where: { email: `reader-a-${stamp}@example.test` },
      create: { email: `reader-a-${stamp}@example.test` },
      update: {},
    });
    const res = await subscribers(admin);
    expect(res.status).toBe(200);
    const emails = res.body.map((s: { email: string }) => s.email);
    expect(emails.filter((e: string) => e === `reader-a-${stamp}@example.test`)).toHaveLength(1);
    expect(emails).not.toContain(`reader-b-${stamp}@example.test`);
    expect(res.body[0]).toEqual({
      id: expect.any(Number),
      email: expect.any(String),
      created_at: expect.any(String),
    });
  });
});

describe('unsubscribe link', () => {
  it('shows a confirmation page, removes the address on confirm, and refuses forged links', async () => {
    const email = `leaving-${Date.now()}@example.test`;
    await h.db.newsletterSubscriber.create({ data: { email } });
    const token = signUnsubscribeToken(h.config.SIGNING_SECRET, email);

    const confirm = await request(h.app).get('/api/newsletter/unsubscribe').query({ token });
    expect(confirm.status).toBe(200);
    expect(confirm.type).toBe('text/html');
    expect(confirm.text).toContain(email);
    // Looking at the page (a mail scanner) changes nothing.
    expect(await h.db.newsletterSubscriber.count({ where: { email } })).toBe(1);

    const done = await request(h.app).post('/api/newsletter/unsubscribe').type('form').send({ token });
    expect(done.status).toBe(200);
    expect(done.text).toContain(MSG.unsubscribed);
    expect(await h.db.newsletterSubscriber.count({ where: { email } })).toBe(0);
    // A second click is the same answer.
    expect(
      (await request(h.app).post('/api/newsletter/unsubscribe').type('form').send({ token })).status,
    ).toBe(200);

    const forged = signUnsubscribeToken('x'.repeat(40), 'someone@example.test');
    const bad = await request(h.app).get('/api/newsletter/unsubscribe').query({ token: forged });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain(MSG.unsubscribeLinkInvalid);
    expect((await request(h.app).get('/api/newsletter/unsubscribe')).status).toBe(400);
    const badPost = await request(h.app)
      .post('/api/newsletter/unsubscribe')
      .type('form')
      .send({ token: forged });
    expect(badPost.status).toBe(400);
  });

  it('escapes what it shows', async () => {
    const token = signUnsubscribeToken(h.config.SIGNING_SECRET, '<b>x</b>@example.test');
    const res = await request(h.app).get('/api/newsletter/unsubscribe').query({ token });
    expect(res.text).not.toContain('<b>x</b>');
  });
});
