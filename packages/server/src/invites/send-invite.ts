import type { Transporter } from 'nodemailer';
import type { Db } from '../db.ts';
import { sendTemplateMail } from '../mail/transport.ts';
import { randomToken, sha256 } from '../tokens.ts';
import { inviteLink } from './invite-link.ts';

export interface SendInviteDeps {
  db: Db;
  transport: Transporter;
  mailFrom: string;
  publicUrl: string;
}

/** Why an invitation was settled without its e-mail (shown in the bulk invite's failed rows). */
export const INVITE_NOT_SENT = {
  userDeleted: 'The user was deleted before the e-mail went out.',
  retired: 'The invitation was replaced or expired before the e-mail went out.',
} as const;

export type SendInviteOutcome = 'sent' | 'skipped';

/**
 * Sends one invitation e-mail, at most once per Invite row:
 * 1. a row already sent, failed, used, retired (expired) or of a deleted user is skipped;
 * 2. the link's token is made now and only its sha256 stored, on the condition that the row is still
 *    unsent (a token never leaves the process unless its hash is in the row);
 * 3. the e-mail goes to the SMTP server; only after it accepted the message is `sentAt` written.
 * A crash before 3 leaves the row unsent: the re-run job sends it (with a new token; the old one was
 * never delivered). The one window left is a crash between the SMTP accept and the `sentAt` write
 * (milliseconds): SMTP has no way to ask "did you get this?", so that is the at-least-once remainder.
 */
export async function sendInvite(
  deps: SendInviteDeps,
  inviteId: number,
  now = new Date(),
): Promise<SendInviteOutcome> {
  // Claim and read in one statement (this is the bulk path's hot loop): a new token hash, on the
  // condition that the row is still open.
  const token = randomToken();
  const rows = await deps.db.$queryRaw<ClaimedInvite[]>`
    UPDATE "Invite" AS i SET "tokenHash" = ${sha256(token)}
    FROM "User" AS u, "Tenant" AS t
    WHERE i.id = ${inviteId} AND i."sentAt" IS NULL AND i."failedAt" IS NULL AND i."usedAt" IS NULL
      AND u.id = i."userId" AND t.id = i."tenantId"
    RETURNING i."expiresAt", u.name, u.email, u."deletedAt", t.name AS "tenantName",
      (SELECT s.name FROM "User" AS s WHERE s.id = i."invitedById") AS "inviterName"`;
  const invite = rows[0];
  if (!invite) return 'skipped';
  // Settled without an e-mail, so a batch's progress still reaches its total.
  if (invite.deletedAt) {
    await markInviteFailed(deps.db, inviteId, INVITE_NOT_SENT.userDeleted);
    return 'skipped';
  }
  if (invite.expiresAt <= now) {
    await markInviteFailed(deps.db, inviteId, INVITE_NOT_SENT.retired);
    return 'skipped';
  }

  await sendTemplateMail(deps.transport, deps.mailFrom, {
    template: 'invite',
    to: invite.email,
    vars: {
      name: invite.name,
      link: inviteLink(deps.publicUrl, token),
      tenantName: invite.tenantName,
      inviterName: invite.inviterName ?? '',
    },
  });
  await deps.db.$executeRaw`UPDATE "Invite" SET "sentAt" = ${new Date()} WHERE id = ${inviteId}`;
  return 'sent';
}

interface ClaimedInvite {
  expiresAt: Date;
  name: string;
  email: string;
  deletedAt: Date | null;
  tenantName: string;
  inviterName: string | null;
}

/** After the last attempt (or a refusal no retry would change): the row is failed, with the reason. */
export async function markInviteFailed(db: Db, inviteId: number, reason: string): Promise<void> {
  await db.invite.updateMany({
    where: { id: inviteId, sentAt: null, failedAt: null },
    data: { failedAt: new Date(), failReason: reason.slice(0, 500) },
  });
}

/** An SMTP answer that a retry will not change (5xx: unknown mailbox, refused address...). */
export const isPermanentSmtpError = (error: unknown): boolean => {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};
