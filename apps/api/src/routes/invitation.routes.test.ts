import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { InvitationView } from '@helix/shared/schemas/invitation';
import { AuthResponse } from '@helix/shared/schemas/session';
import { createInvitedUsers } from '@helix/server/invites/invited-users';
import { randomToken, sha256 } from '@helix/server/tokens';
import { createHarness, type Harness } from '../../test/harness.ts';
import { createInvite, createTenant, createUser, seedRoles } from '@helix/server/testing/factories';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await seedRoles(h.db);
});
afterAll(async () => {
  await h?.close();
});

const lookup = (token: string) => request(h.app).get('/api/user/invitation').query({ token });
const accept = (body: Record<string, unknown>) =>
  request(h.app).post('/api/user/invitation/accept').send(body);

/** A school with its own look, an owner, and an invitation made the way the invite command makes it. */
async function school(name: string, colour: string) {
  const tenant = await createTenant(h.db, { name });
  await h.db.branding.update({
    where: { tenantId: tenant.id },
    data: { primaryColor: colour, brandLogo: `images/logo-${tenant.domainPrefix}.webp` },
  });
  const owner = await createUser(h.db, { tenant, name: `Owner of ${name}`, isOwner: true });
  return { tenant, owner };
}

async function invitation(s: Awaited<ReturnType<typeof school>>, email: string, expiresAt?: Date) {
  const [row] = await h.db.$transaction((tx) =>
    createInvitedUsers(tx, {
      tenantId: s.tenant.id,
      invitedById: s.owner.id,
      rows: [{ name: 'Ana Pupil', email }],
      expiresAt: expiresAt ?? new Date(Date.now() + 48 * 3600_000),
    }),
  );
  const token = randomToken();
  await h.db.invite.update({ where: { id: row!.inviteId }, data: { tokenHash: sha256(token) } });
  return { token, inviteId: row!.inviteId, userId: row!.userId };
}

describe('GET /api/user/invitation', () => {
  it("answers an open invitation with the school's look, the invitee's e-mail and name, and the expiry", async () => {
    const s = await school('Green Valley School', '#0a7d32');
    const other = await school('Other Academy', '#aa0000');
    await invitation(other, 'someone@other.test');
    const expiresAt = new Date(Date.now() + 48 * 3600_000);
    const { token } = await invitation(s, 'ana@green.test', expiresAt);

    const res = await lookup(token);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(InvitationView.parse(res.body)).toEqual({
      state: 'open',
      school: {
        name: 'Green Valley School',
        brandLogo: `/api/files/images/logo-${s.tenant.domainPrefix}.webp`,
        primaryColor: '#0a7d32',
        textColor: '#ffffff',
        backgroundColor: '#ffffff',
      },
      email: 'ana@green.test',
      name: 'Ana Pupil',
      expiresAt: expiresAt.toISOString(),
    });
    // Nothing of another tenant, no ids, hashes or the school's slug.
    const body = JSON.stringify(res.body);
    for (const leak of [
      'Other Academy',
      'someone@other.test',
      '#aa0000',
      s.tenant.domainPrefix + '"',
      'tokenHash',
    ]) {
      expect(body).not.toContain(leak);
    }
    expect(Object.keys(res.body as object).sort()).toEqual(['email', 'expiresAt', 'name', 'school', 'state']);
  });

  it('says expired (with whom to ask), used and invalid, without the e-mail', async () => {
    const s = await school('Hill School', '#123456');
    const expired = await invitation(s, 'late@hill.test', new Date(Date.now() - 1000));
    const res = await lookup(expired.token);
    expect(res.body).toMatchObject({ state: 'expired', inviterName: 'Owner of Hill School' });
    expect(res.body.school.name).toBe('Hill School');
    expect(JSON.stringify(res.body)).not.toContain('late@hill.test');

    const used = await createInvite(h.db, { tenant: s.tenant, usedAt: new Date() });
    expect((await lookup(used.token)).body).toEqual({
      state: 'used',
      school: expect.objectContaining({ name: 'Hill School' }),
    });

    expect((await lookup('no-such-token')).body).toEqual({ state: 'invalid' });

    const removed = await invitation(s, 'gone@hill.test');
    await h.db.user.update({ where: { id: removed.userId }, data: { deletedAt: new Date() } });
    expect((await lookup(removed.token)).body).toEqual({ state: 'invalid' });
  });

  it('refuses a missing or oversized token with a 400', async () => {
    expect((await request(h.app).get('/api/user/invitation')).status).toBe(400);
    expect((await lookup('x'.repeat(201))).status).toBe(400);
    expect((await lookup('')).status).toBe(400);
    for (const query of ['token=a&token=b', 'token[x]=1', 'token=a%00b', 'token=a&more=1']) {
      const res = await request(h.app).get(`/api/user/invitation?${query}`);
      expect(res.status, query).toBe(400);
    }
  });

  it('is rate limited per address', async () => {
    // An address of its own (through the trusted proxy's header), so other tests' lookups do not count.
    const app = h.appWith({ INVITATION_RATE_LIMIT_MAX: '2', TRUST_PROXY: 'true' });
    const ask = (from: string) =>
      request(app).get('/api/user/invitation').query({ token: 'guess' }).set('X-Forwarded-For', from);
    expect((await ask('203.0.113.71')).status).toBe(200);
    expect((await ask('203.0.113.71')).status).toBe(200);
    const third = await ask('203.0.113.71');
    expect(third.status).toBe(429);
    expect(third.body.message).toBe(MSG.tooManyRequests);
    expect((await ask('203.0.113.72')).status).toBe(200);
  });
});

describe('POST /api/user/invitation/accept', () => {
  it('joins the school with the invitation e-mail, signs in, and uses the link up', async () => {
    const s = await school('Lake School', '#224466');
    const { token, userId } = await invitation(s, 'ana.maria-99@lake.test');

    const res = await accept({ token, name: '  Ana María ', password: 'a good password' });
    expect(res.status).toBe(201);
    const answer = AuthResponse.parse(res.body);
    expect(answer.authType).toBe('is-loggedin');
    expect(answer.tenant).toBe(s.tenant.domainPrefix);
    expect(answer.user).toMatchObject({ email: 'ana.maria-99@lake.test', name: 'Ana María' });
    // The placeholder username became one of the e-mail's letters.
    const user = await h.db.user.findUniqueOrThrow({ where: { id: userId } });
    expect(user.userName).toMatch(/^anamaria[0-9]*$/);

    const info = await request(h.app)
      .get(`/api/t/${answer.tenant}/user/info`)
      .set('Authorization', `Bearer ${answer.apiToken}`);
    expect(info.status).toBe(200);
    const login = await request(h.app)
      .post('/api/user/login')
      .send({ email: 'ana.maria-99@lake.test', password: 'a good password' });
    expect(login.status).toBe(200);

    expect((await lookup(token)).body.state).toBe('used');
    const again = await accept({ token, name: 'Ana', password: 'another password' });
    expect(again.status).toBe(400);
    expect(again.body.errors).toEqual({ token: MSG.inviteInvalid });
  });

  it('takes the same rules as the form: name, the one password rule, no other fields', async () => {
    const s = await school('Rule School', '#334455');
    const { token } = await invitation(s, 'rules@rule.test');
    const short = await accept({ token, name: 'Ana', password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual({ password: MSG.passwordMin8 });
    const noName = await accept({ token, name: '  ', password: 'a good password' });
    expect(noName.body.errors).toEqual({ name: MSG.nameRequired });
    // The e-mail is the invitation's: a client cannot choose another.
    const withEmail = await accept({ token, name: 'Ana', password: 'a good password', email: 'x@y.test' });
    expect(withEmail.status).toBe(400);
    const expired = await invitation(s, 'late@rule.test', new Date(Date.now() - 1000));
    const late = await accept({ token: expired.token, name: 'Ana', password: 'a good password' });
    expect(late.status).toBe(400);
    expect(late.body.errors).toEqual({ token: MSG.inviteInvalid });
  });
});

describe('POST /api/user/invitation/renewal-request', () => {
  const renewalJobs = async () =>
    (await h.deps.queue.queueOf('email').getJobs(['waiting', 'delayed', 'completed', 'active'])).filter(
      (job) => (job.data as { template?: string }).template === 'invite-renewal',
    );

  it("e-mails the inviter once, in the school's look, for an expired invitation only", async () => {
    const s = await school('Renewal School', '#0a7d32');
    const expired = await invitation(s, 'late@renewal.test', new Date(Date.now() - 1000));
    const ask = () =>
      request(h.app).post('/api/user/invitation/renewal-request').send({ token: expired.token });

    const res = await ask();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: MSG.invitationAsked('Renewal School') });
    // A second click (or a reload) sends nothing more.
    expect((await ask()).body).toEqual(res.body);
    const jobs = (await renewalJobs()).filter((j) => j.data.to === s.owner.email);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.data).toMatchObject({
      to: s.owner.email,
      vars: { inviteeName: 'Ana Pupil', inviteeEmail: 'late@renewal.test', tenantName: 'Renewal School' },
      brand: {
        name: 'Renewal School',
        primaryColor: '#0a7d32',
        logoUrl: `http://portal.test/api/files/images/logo-${s.tenant.domainPrefix}.webp`,
      },
    });

    // An open, a used or an unknown invitation cannot ask.
    const open = await invitation(s, 'open@renewal.test');
    const used = await createInvite(h.db, { tenant: s.tenant, usedAt: new Date(), expiresAt: new Date(0) });
    for (const token of [open.token, used.token, 'no-such-token']) {
      const refused = await request(h.app).post('/api/user/invitation/renewal-request').send({ token });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual({ token: MSG.inviteInvalid });
    }
    expect((await renewalJobs()).filter((j) => j.data.to === s.owner.email)).toHaveLength(1);
  });

  it('sends nothing when a newer invitation is still open (a resend), and says so', async () => {
    const s = await school('Resent School', '#0a7d32');
    const old = await invitation(s, 'resent@resent.test', new Date(Date.now() - 1000));
    await h.db.invite.create({
      data: {
        tenantId: s.tenant.id,
        userId: old.userId,
        tokenHash: sha256(randomToken()),
        expiresAt: new Date(Date.now() + 3600_000),
      },
    });
    const res = await request(h.app).post('/api/user/invitation/renewal-request').send({ token: old.token });
    expect(res.body).toEqual({ message: MSG.invitationNewerSent });
    expect((await renewalJobs()).filter((j) => j.data.to === s.owner.email)).toHaveLength(0);
  });
});

describe('the Terms and Privacy pages', () => {
  it('are plain default pages, or redirects to the configured addresses', async () => {
    const terms = await request(h.app).get('/terms');
    expect(terms.status).toBe(200);
    expect(terms.type).toBe('text/html');
    expect(terms.text).toContain('<h1>Terms of Service</h1>');
    expect((await request(h.app).get('/privacy')).text).toContain('<h1>Privacy Policy</h1>');

    const app = h.appWith({
      TERMS_URL: 'https://school.example/terms',
      PRIVACY_URL: 'https://school.example/p',
    });
    const moved = await request(app).get('/terms');
    expect(moved.status).toBe(302);
    expect(moved.headers.location).toBe('https://school.example/terms');
    expect((await request(app).get('/privacy')).headers.location).toBe('https://school.example/p');
  });
});
