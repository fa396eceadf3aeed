import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '@helix/server/auth/password';
import { createTenant, createUser, PASSWORD, uniqueName } from '@helix/server/testing/factories';
import { MSG } from '@helix/shared';
import { createHarness, type Harness } from '../../test/harness.ts';
import { loginDelaySeconds } from './login-throttle.ts';

/**
 * Logins for schools: a high ceiling per address (a class signs in from one school address); guessing
 * slowed per account and address, progressively, and per account past a ceiling, without locking the
 * owner out (login-throttle.ts). The default limits.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ TRUST_PROXY: 'true' });
});
afterAll(async () => {
  await h?.close();
});

const login = (email: string, password: string, address = '203.0.113.7') =>
  request(h.app).post('/api/user/login').set('X-Forwarded-For', address).send({ email, password });

describe('login throttling for schools', () => {
  it('300 pupils behind one school address all sign in within the window', async () => {
    const tenant = await createTenant(h.db);
    const passwordHash = await hashPassword(PASSWORD);
    const prefix = uniqueName('pupil');
    const emails = Array.from({ length: 300 }, (_, i) => `${prefix}${i}@school.example`);
    await h.db.user.createMany({
      data: emails.map((email, i) => ({
        tenantId: tenant.id,
        name: `Pupil ${i}`,
        userName: `${prefix}${i}`,
        email,
        passwordHash,
        isOwner: false,
      })),
    });
    const statuses: number[] = [];
    const bodies: string[] = [];
    // Ten at a time, as a classroom would.
    for (let i = 0; i < emails.length; i += 10) {
      const batch = emails.slice(i, i + 10).map((email) => login(email, PASSWORD, '198.51.100.20'));
      for (const res of await Promise.all(batch)) {
        statuses.push(res.status);
        if (res.status !== 200) bodies.push(res.text);
      }
    }
    expect(
      statuses.filter((s) => s !== 200),
      bodies.join('\n'),
    ).toEqual([]);
  }, 600_000);

  it('a classmate guessing at one address is slowed, progressively; the owner elsewhere signs in', async () => {
    const tenant = await createTenant(h.db);
    const pupil = await createUser(h.db, { tenant });
    const classmate = '192.0.2.50';
    // Five wrong passwords are free (typos), then each further one makes that address wait longer.
    for (let i = 0; i < 5; i += 1)
      expect((await login(pupil.email, `guess-${i}`, classmate)).status).toBe(400);
    expect((await login(pupil.email, 'guess-5', classmate)).status).toBe(400);
    // The owner, on another device and address, is not locked out.
    expect((await login(pupil.email, PASSWORD, '198.51.100.77')).status).toBe(200);
    // After each wait, the next failure at the classmate's address doubles it: 1 s, 2 s, 4 s, 8 s.
    let sentAt = 0;
    for (const [i, wait] of [1, 2, 4].entries()) {
      await new Promise((r) => setTimeout(r, wait * 1000 + 100));
      sentAt = Date.now();
      expect((await login(pupil.email, `guess-${6 + i}`, classmate)).status).toBe(400);
    }
    // Even with the right password, that address waits its turn: 8 s from the last failure (asked of
    // the 8 s wait, which a loaded machine's next request always falls within; the 1 s one it did not).
    const slowed = await login(pupil.email, PASSWORD, classmate);
    const late = Math.ceil((Date.now() - sentAt) / 1000);
    expect(late, 'the request came within the wait').toBeLessThan(8);
    expect(slowed.status).toBe(429);
    expect(slowed.body).toMatchObject({ code: 'TOO_MANY_REQUESTS', message: MSG.loginWait });
    const retryAfter = Number(slowed.headers['retry-after']);
    expect(retryAfter).toBeLessThanOrEqual(8);
    expect(retryAfter).toBeGreaterThanOrEqual(8 - late);
    expect(retryAfter).toBeGreaterThan(4);
  }, 600_000);

  it('many addresses guessing one account: past the account ceiling each failure is delayed, never a lock', async () => {
    const tenant = await createTenant(h.db);
    const target = await createUser(h.db, { tenant });
    const other = await createUser(h.db, { tenant });
    // 100 failures (the ceiling) from 25 addresses, 4 each: within each address's free failures.
    for (let i = 0; i < 100; i += 1) {
      const res = await login(target.email, `wrong-${i}`, `192.0.2.${(i % 25) + 100}`);
      expect(res.status, `guess ${i}`).toBe(400);
    }
    // Past it, every failure at any address makes that address wait at once (no free failures left):
    // 1 s, then 2 s, then 4 s (asked of the 4 s wait, which a loaded machine's next request falls within).
    let sentAt = 0;
    for (const wait of [0, 1, 2]) {
      await new Promise((r) => setTimeout(r, wait && wait * 1000 + 100));
      sentAt = Date.now();
      expect((await login(target.email, 'wrong-again', '192.0.2.200')).status).toBe(400);
    }
    const waited = await login(target.email, 'wrong-again', '192.0.2.200');
    expect(Date.now() - sentAt, 'the request came within the wait').toBeLessThan(4000);
    expect(waited.status).toBe(429);
    // The owner at an address with no failures signs in; another account is untouched.
    expect((await login(target.email.toUpperCase(), PASSWORD, '203.0.113.200')).status).toBe(200);
    expect((await login(other.email, PASSWORD, '192.0.2.100')).status).toBe(200);
  }, 600_000);

  it('malformed requests guess nothing: they are refused by validation and not counted', async () => {
    const tenant = await createTenant(h.db);
    const pupil = await createUser(h.db, { tenant });
    const address = '192.0.2.77';
    for (let i = 0; i < 12; i++) {
      const res = await request(h.app)
        .post('/api/user/login')
        .set('X-Forwarded-For', address)
        .send({ email: pupil.email, password: 12345 });
      expect(res.status).toBe(400);
    }
    // Still the first of the free failures: a wrong password answers the credentials' 400, not a wait.
    const wrong = await login(pupil.email, 'not-the-password', address);
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(MSG.invalidCredentials);
  });

  it('waits 1, 2, 4 ... seconds after the free failures, up to the ceiling', () => {
    expect([1, 5, 6, 7, 8, 9, 20].map((n) => loginDelaySeconds(n, 5, 900))).toEqual([0, 0, 1, 2, 4, 8, 900]);
    expect(loginDelaySeconds(1, 0, 900)).toBe(1);
    expect(loginDelaySeconds(1_000, 5, 900)).toBe(900);
  });

  it('successful logins do not use up an account’s budget', async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    for (let i = 0; i < 15; i += 1) expect((await login(user.email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 5; i += 1) expect((await login(user.email, 'wrong')).status).toBe(400);
    // A success clears the run of failures at that address: five more are free again.
    expect((await login(user.email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 5; i += 1) expect((await login(user.email, 'wrong')).status).toBe(400);
    expect((await login(user.email, PASSWORD)).status).toBe(200);
  });
});
