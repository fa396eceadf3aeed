import type { Transporter } from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropDatabase } from '@helix/server/testing/test-db';
import type { Db, Tenant } from '../db.ts';
import { createTestDb } from '../testing/test-db.ts';
import { openInvite } from '../accounts/join.command.ts';
import { renderMail } from '../mail/templates.ts';
import { sha256 } from '../tokens.ts';
import { inviteToken } from './invite-token.ts';
import { createTenant, createUser, seedRoles } from '../testing/factories.ts';
import { addressOwners, ELSEWHERE_DOMAIN } from './invite-elsewhere.ts';
import { createInvitedUsers } from './invited-users.ts';
import { InviteSendLeased, sendInvite, type SendInviteDeps } from './send-invite.ts';

/**
 * Invites of addresses with an account at another tenant, against a real PostgreSQL: which addresses
 * a tenant may be told about, the placeholder row, and the notice sent exactly once through the
 * invitation's claim and lease (send-invite.ts).
 */
let database: { name: string; url: string };
let db: Db;
let school: Tenant;
let ownerId: number;
let foreign: { email: string };

beforeAll(async () => {
  database = await createTestDatabase('helix_invite_elsewhere');
  db = createTestDb(database.url);
  await seedRoles(db);
  school = await createTenant(db, { name: 'Notice School' });
  ownerId = (await createUser(db, { tenant: school, name: 'Olivia Owner' })).id;
  const other = await createTenant(db);
  foreign = await createUser(db, { tenant: other });
});
afterAll(async () => {
  await db?.$disconnect();
  if (database) await dropDatabase(database.name);
});

let n = 0;
const inviteElsewhere = (email: string) =>
  db.$transaction(async (tx) => {
    n += 1;
    const [created] = await createInvitedUsers(tx, {
      tenantId: school.id,
      invitedById: ownerId,
      rows: [{ name: `Invitee ${n}`, email, elsewhere: true }],
      expiresAt: new Date(Date.now() + 3600_000),
    });
    return created!;
  });

function recorder(behave: () => Promise<void> | void = () => undefined) {
  const sent: Array<{ to: string; subject: string; text: string }> = [];
  const transport = {
    async sendMail(mail: { to: string; subject: string; text: string }) {
      sent.push(mail);
      await behave();
      return {};
    },
  } as unknown as Transporter;
  return { sent, transport };
}
const depsWith = (transport: Transporter, leaseMs?: number): SendInviteDeps => ({
  db,
  transport,
  mailFrom: 'Helix <no-reply@helix.test>',
  publicUrl: 'http://portal.test',
  signingSecret: 'a-test-signing-secret-of-32-characters!',
  logos: { inline: () => Promise.resolve(null) },
  leaseMs,
});

describe('addressOwners', () => {
  it('tells the tenant its own addresses only; another tenant’s are elsewhere, unknown ones in neither', async () => {
    const mine = await createUser(db, { tenant: school });
    const owners = await db.$transaction((tx) =>
      addressOwners(tx, school.id, [mine.email, foreign.email, 'nobody@example.test']),
    );
    expect([...owners.own]).toEqual([mine.email]);
    expect([...owners.elsewhere]).toEqual([foreign.email]);
  });

  it('counts a pending invite of an address elsewhere as the tenant’s own', async () => {
    const other = await createUser(db, { tenant: await createTenant(db) });
    await inviteElsewhere(other.email);
    const owners = await db.$transaction((tx) => addressOwners(tx, school.id, [other.email]));
    expect([...owners.own]).toEqual([other.email]);
    expect(owners.elsewhere.size).toBe(0);
  });
});

describe('the notice instead of an invitation', () => {
  it('stores a placeholder row, and mails the notice to the typed address once, across a failed attempt', async () => {
    const created = await inviteElsewhere(foreign.email);
    expect(created.email).toBe(foreign.email);
    const row = await db.user.findUniqueOrThrow({ where: { id: created.userId } });
    expect(row).toMatchObject({ tenantId: school.id, elsewhereEmail: foreign.email, passwordHash: null });
    expect(row.email.endsWith(`@${ELSEWHERE_DOMAIN}`)).toBe(true);

    const failing = recorder(() => {
      throw Object.assign(new Error('connection lost'), { code: 'ECONNRESET' });
    });
    await expect(sendInvite(depsWith(failing.transport), created.inviteId)).rejects.toThrow(
      'connection lost',
    );
    const ok = recorder();
    expect(await sendInvite(depsWith(ok.transport), created.inviteId)).toBe('sent');
    expect(await sendInvite(depsWith(ok.transport), created.inviteId)).toBe('skipped');
    expect(ok.sent).toHaveLength(1);
    expect(ok.sent[0]).toMatchObject({
      to: foreign.email,
      subject: 'You were invited to Notice School on Helix',
    });
    expect(ok.sent[0]!.text).not.toMatch(/https?:\/\//);
    expect(ok.sent[0]!.text).toContain('Olivia Owner');
    // Even the token the row's nonce derives (never mailed) opens nothing.
    const invite = await db.invite.findUniqueOrThrow({ where: { id: created.inviteId } });
    const token = inviteToken(depsWith(ok.transport).signingSecret, invite.tokenNonce!);
    expect(sha256(token)).toBe(invite.tokenHash);
    expect(await openInvite(db, token)).toBeNull();
  });

  it('a second attempt while the first holds the lease sends nothing', async () => {
    const other = await createUser(db, { tenant: await createTenant(db) });
    const created = await inviteElsewhere(other.email);
    let release = () => undefined as void;
    const held = recorder(() => new Promise<void>((resolve) => (release = resolve)));
    const first = sendInvite(depsWith(held.transport, 60_000), created.inviteId);
    while (held.sent.length === 0) await new Promise((r) => setTimeout(r, 10));
    const second = recorder();
    const leased = await sendInvite(depsWith(second.transport), created.inviteId).catch((e: unknown) => e);
    expect(leased).toBeInstanceOf(InviteSendLeased);
    release();
    expect(await first).toBe('sent');
    expect(second.sent).toHaveLength(0);
  });
});

describe('the invite-elsewhere template', () => {
  it('says who invited them to which school and how to join with another address, escaped in HTML', () => {
    const mail = renderMail('invite-elsewhere', {
      name: 'Ana',
      email: 'ana@example.test',
      tenantName: 'A & B <School>',
      inviterName: 'Olivia',
    });
    expect(mail.subject).toBe('You were invited to A & B <School> on Helix');
    expect(mail.text).toContain(
      'Olivia invited you to join A & B <School> on Helix with the address ana@example.test.',
    );
    expect(mail.text).toContain('ask Olivia to invite another of your e-mail addresses');
    expect(mail.html).toContain('A &amp; B &lt;School&gt;');
    expect(mail.html).not.toContain('<School>');
  });
});
