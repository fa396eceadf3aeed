import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { createLogger } from '@helix/server';
import { sha256 } from '@helix/server/tokens';
import { createWorkerRuntime, type WorkerRuntime } from '@helix/worker/worker-runtime';
import { createHarness, type Harness } from '../../test/harness.ts';
import { createTenant, createUser, PASSWORD, seedRoles } from '@helix/server/testing/factories';

interface Received {
  to: string[];
  raw: Buffer;
}

let h: Harness;
let smtp: SMTPServer;
let worker: WorkerRuntime;
const inbox: Received[] = [];
const waiters: (() => void)[] = [];

async function nextMail(count: number, timeoutMs = 15_000): Promise<Received> {
  const deadline = Date.now() + timeoutMs;
  while (inbox.length < count) {
    if (Date.now() > deadline) throw new Error('no e-mail arrived');
    await new Promise<void>((resolve) => {
      waiters.push(resolve);
      setTimeout(resolve, 100);
    });
  }
  return inbox[count - 1]!;
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks) });
        waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;

  h = await createHarness({ SMTP_URL: `smtp://127.0.0.1:${port}`, RESET_TOKEN_TTL_MINUTES: '30' });
  await seedRoles(h.db);
  // The worker's e-mail family, in this process, on the same queues.
  worker = createWorkerRuntime(h.config, createLogger('silent', 'worker-test'), { db: h.db });
  await worker.start({ families: ['email'] });
});

afterAll(async () => {
  await worker?.stop();
  await h?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const forgot = (email: string, brand?: string) =>
  request(h.app)
    .post('/api/user/send_password_reset_token')
    .send(brand ? { email, brand } : { email });

describe('forgot password, end to end', () => {
  it('e-mails a single-use link that sets the password and ends the sessions', async () => {
    const tenant = await createTenant(h.db, { name: 'Rosa School & Co' });
    await h.db.branding.update({ where: { tenantId: tenant.id }, data: { primaryColor: '#0a7d32' } });
    const user = await createUser(h.db, { tenant, name: 'Rosa <b>Bold</b>' });
    const oldSession = (
      await request(h.app).post('/api/user/login').send({ email: user.email, password: PASSWORD })
    ).body.apiToken;

    const res = await forgot(user.email.toUpperCase());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: MSG.resetEmailSent(user.email) });

    const mail = await nextMail(1);
    expect(mail.to).toEqual([user.email]);
    const parsed = await PostalMime.parse(mail.raw);
    expect(parsed.subject).toBe('Set your Helix password');
    const link = /http:\/\/portal\.test\/set-password\?token=([A-Za-z0-9_-]+)/.exec(parsed.text ?? '');
    expect(link).not.toBeNull();
    // The name is escaped in the HTML part.
    expect(parsed.html).toContain('Rosa &lt;b&gt;Bold&lt;/b&gt;');
    expect(parsed.html).not.toContain('<b>Bold</b>');
    // In the school's look: its name (escaped) and its colour on the button; the text part too.
    expect(parsed.html).toContain('Rosa School &amp; Co');
    expect(parsed.html).toContain('background:#0a7d32');
    expect(parsed.text?.split('\n')[0]).toBe('Rosa School & Co');
    const token = link![1]!;

    // Stored hashed, with the configured lifetime.
    const row = await h.db.passwordResetToken.findUniqueOrThrow({ where: { tokenHash: sha256(token) } });
    expect(Math.round((row.expiresAt.getTime() - row.createdAt.getTime()) / 60_000)).toBe(30);

    const reset = await request(h.app)
      .post('/api/user/reset_password')
      .send({ token, password: 'brand new password' });
    expect(reset.status).toBe(200);
    expect(reset.body).toEqual({ message: MSG.passwordUpdated });

    expect(
      (await request(h.app).post('/api/user/login').send({ email: user.email, password: PASSWORD })).status,
    ).toBe(400);
    expect(
      (
        await request(h.app)
          .post('/api/user/login')
          .send({ email: user.email, password: 'brand new password' })
      ).status,
    ).toBe(200);
    // The session from before the reset is over (a plain 401, not the multiple-login popup).
    const old = await request(h.app)
      .get(`/api/t/${tenant.domainPrefix}/user/info`)
      .set('Authorization', `Bearer ${oldSession}`);
    expect(old.status).toBe(401);
    expect(old.body.error).toBe('Unauthorized');

    const again = await request(h.app)
      .post('/api/user/reset_password')
      .send({ token, password: 'another password' });
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual({ token: MSG.resetTokenInvalid });
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const before = inbox.length;
    const res = await forgot('nobody-here@example.test');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: MSG.resetEmailSent('nobody-here@example.test') });
    await new Promise((r) => setTimeout(r, 500));
    expect(inbox.length).toBe(before);
  });

  it('uses the brand suffix and collapses a double click into one e-mail', async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    const before = inbox.length;
    await Promise.all([forgot(user.email, 'Acme Labs'), forgot(user.email, 'Acme Labs')]);
    const mail = await nextMail(before + 1);
    const parsed = await PostalMime.parse(mail.raw);
    expect(parsed.text).toMatch(/http:\/\/portal\.test\/set-password\/Acme%20Labs\?token=/);
    await new Promise((r) => setTimeout(r, 500));
    expect(inbox.length).toBe(before + 1);
    expect(await h.db.passwordResetToken.count({ where: { userId: user.id } })).toBe(1);
  });

  it('rejects an expired token, an unknown token and a short password', async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    const token = 'expired-token-expired-token-expired-token12';
    await h.db.passwordResetToken.create({
      data: { userId: user.id, tokenHash: sha256(token), expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await request(h.app)
      .post('/api/user/reset_password')
      .send({ token, password: 'long enough password' });
    expect(expired.status).toBe(400);
    expect(expired.body.errors).toEqual({ token: MSG.resetTokenInvalid });

    const unknown = await request(h.app)
      .post('/api/user/reset_password')
      .send({ token: 'nope', password: 'long enough password' });
    expect(unknown.status).toBe(400);

    const short = await request(h.app).post('/api/user/reset_password').send({ token, password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual({ password: MSG.passwordMin8 });
  });
});
