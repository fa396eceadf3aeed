import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '@helix/server/auth/password';
import { createTenant, createUser, PASSWORD, uniqueName } from '@helix/server/testing/factories';
import { createHarness, type Harness } from '../../test/harness.ts';

/**
 * Logins for schools: a high ceiling per address (a class signs in from one school address), failures
 * counted per account from any address (one account cannot be guessed). The default limits.
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
    // Ten at a time, as a classroom would.
    for (let i = 0; i < emails.length; i += 10) {
      const batch = emails.slice(i, i + 10).map((email) => login(email, PASSWORD, '198.51.100.20'));
      for (const res of await Promise.all(batch)) statuses.push(res.status);
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  }, 120_000);

  it('one account is locked after 10 failures, from any address; other accounts are not', async () => {
    const tenant = await createTenant(h.db);
    const target = await createUser(h.db, { tenant });
    const other = await createUser(h.db, { tenant });
    for (let i = 0; i < 10; i += 1) {
      // Each guess from another address: the address ceiling never applies.
      const res = await login(target.email, `wrong-${i}`, `192.0.2.${i + 1}`);
      expect(res.status).toBe(400);
    }
    const locked = await login(target.email, `wrong-again`, '192.0.2.99');
    expect(locked.status).toBe(429);
    expect(locked.headers['retry-after']).toBeDefined();
    // The right password does not get through a locked account either, in any case of the address.
    expect((await login(target.email.toUpperCase(), PASSWORD, '192.0.2.100')).status).toBe(429);
    // Another account from the same addresses signs in.
    expect((await login(other.email, PASSWORD, '192.0.2.1')).status).toBe(200);
  });

  it('successful logins do not use up an account’s budget', async () => {
    const tenant = await createTenant(h.db);
    const user = await createUser(h.db, { tenant });
    for (let i = 0; i < 15; i += 1) expect((await login(user.email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 9; i += 1) expect((await login(user.email, 'wrong')).status).toBe(400);
    expect((await login(user.email, PASSWORD)).status).toBe(200);
  });
});
