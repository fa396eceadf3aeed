import type { Transporter } from 'nodemailer';
import { ZodError } from 'zod';
import type { Db } from '../db.ts';
import { presentMailBrand } from '../mail/mail-brand.ts';
import type { MailLogos } from '../mail/mail-logo.ts';
import { sendTemplateMail } from '../mail/transport.ts';
import { inviteLink } from './invite-link.ts';
import { sha256 } from '../tokens.ts';
import { inviteToken, inviteTokenHash, newInviteNonce, newInviteNonces } from './invite-token.ts';

export interface SendInviteDeps {
  db: Db;
  transport: Transporter;
  mailFrom: string;
  publicUrl: string;
  /** SIGNING_SECRET: the key the invitation tokens are derived with (invite-token.ts). */
  signingSecret: string;
  /** The school's logo as the e-mail's inline PNG (mail-logo.ts). */
  logos: MailLogos;
  /** How long a send is claimed for; default INVITE_SEND_LEASE_MS. */
  leaseMs?: number;
  /**
   * Writes a sent row's marker (step 3); default markInviteSent, one statement per row. The worker's
   * bulk sends share one inviteSentMarker, which writes the markers of the rows sent meanwhile together.
   */
  markSent?: (inviteId: number) => Promise<void>;
}

/**
 * How long an attempt holds an invitation's send. Longer than any one SMTP conversation (the
 * transport gives up on a silent server well before), short enough that the e-mails a killed worker
 * had in flight go out again within a minute.
 */
export const INVITE_SEND_LEASE_MS = 30_000;

/** Why an invitation was settled without its e-mail (shown in the bulk invite's failed rows). */
export const INVITE_NOT_SENT = {
  userDeleted: 'The user was deleted before the e-mail went out.',
  retired: 'The invitation was replaced or expired before the e-mail went out.',
} as const;

export type SendInviteOutcome = 'sent' | 'skipped';

/**
 * Another attempt holds the send (a killed worker's, until its lease ends): this one must not send
 * now, and should look again in `waitMs`.
 */
export class InviteSendLeased extends Error {
  constructor(
    readonly inviteId: number,
    readonly waitMs: number,
  ) {
    super(`invite ${inviteId} is being sent by another attempt for ${waitMs} ms more`);
  }
}

// The lease is read and written on the database's clock, so API and worker machines need not agree.
const DB_NOW = `(clock_timestamp() AT TIME ZONE 'UTC')`;

/**
 * Sends one invitation e-mail, at most once per Invite row but for the e-mails in flight at a crash:
 * 1. claim (claimInvites): one statement decides, on one reading of the clock, whether this attempt
 *    claims the row, another attempt holds it (until when), or it is settled already; a claimed row is
 *    leased to this attempt until now + lease, and its token nonce is made here the first time and
 *    kept, so every attempt derives the same token (invite-token.ts) and any copy's link works;
 * 2. a row of a deleted user or past its expiry is settled as failed without an e-mail;
 * 3. the e-mail goes to the SMTP server; after it accepted the message, `sentAt` is written (and the
 *    batch's progress, in the same statement). A failure clears the lease so the retry may claim.
 * A crash between the SMTP accept and step 3's write leaves a lease that ends after leaseMs; the next
 * attempt sends again (the only duplicates: the rows in flight). A row another attempt holds throws
 * InviteSendLeased with how long to wait: never 'skipped' while the row is open.
 */
export async function sendInvite(deps: SendInviteDeps, inviteId: number): Promise<SendInviteOutcome> {
  const { claimed, held } = await claimInvites(deps, [inviteId]);
  const [invite] = claimed;
  if (!invite) {
    const waitMs = held.get(inviteId);
    if (waitMs !== undefined) throw new InviteSendLeased(inviteId, waitMs);
    return 'skipped';
  }
  return deliverClaimed(deps, invite);
}

/**
 * The shortest wait before looking again at a row held by another attempt: a row taken by a claim
 * running at the same moment reads as open with no lease in this statement's snapshot.
 */
export const INVITE_HELD_MIN_WAIT_MS = 250;

export interface InviteClaim {
  /** The rows this attempt now holds, with what their e-mails need. */
  claimed: ClaimedInvite[];
  /** The rows still open that another attempt holds, with how long (ms) until its lease ends. */
  held: Map<number, number>;
}

/**
 * Step 1 for one or several rows (a bulk invite's rows job), in one statement: the rows among
 * `inviteIds` still open and not leased to another attempt are leased to this one; the other open rows
 * are reported held with the time left on their lease; settled rows are in neither. The clock is read
 * once, so a lease cannot end between "not claimable" and "not held" (a row lost for good otherwise).
 * Each row gets its own fresh nonce, kept only when it had none.
 */
export async function claimInvites(deps: SendInviteDeps, inviteIds: readonly number[]): Promise<InviteClaim> {
  if (inviteIds.length === 0) return { claimed: [], held: new Map() };
  const leaseMs = deps.leaseMs ?? INVITE_SEND_LEASE_MS;
  const nonces = newInviteNonces(inviteIds.length);
  const rows = await deps.db.$queryRawUnsafe<
    Array<ClaimedInvite & { askedId: number; heldMs: number | null }>
  >(
    `WITH now AS MATERIALIZED (SELECT ${DB_NOW} AS t),
     claimed AS (
       UPDATE "Invite" AS i SET "sendingUntil" = now.t + $2 * interval '1 millisecond',
         "tokenNonce" = COALESCE(i."tokenNonce", n.nonce),
         "tokenHash" = CASE WHEN i."tokenNonce" IS NULL THEN n.hash ELSE i."tokenHash" END
       FROM now, unnest($1::int[], $3::text[], $4::text[]) AS n(id, nonce, hash),
         "User" AS u, "Tenant" AS t LEFT JOIN "Branding" AS b ON b."tenantId" = t.id
       WHERE i.id = n.id AND i."sentAt" IS NULL AND i."failedAt" IS NULL AND i."usedAt" IS NULL
         AND (i."sendingUntil" IS NULL OR i."sendingUntil" <= now.t)
         AND u.id = i."userId" AND t.id = i."tenantId"
       RETURNING i.id, i."tokenNonce" AS nonce, i."tokenHash" AS "tokenHash", i."expiresAt" <= now.t AS expired,
         u.name, COALESCE(u."elsewhereEmail", u.email) AS email, u."elsewhereEmail" IS NOT NULL AS elsewhere,
         u."deletedAt", t.name AS "tenantName", i."expiresAt" AS "expiresAt",
         t."isPlatform" AS "isPlatform", t."customBrandName" AS "customBrandName",
         b."brandLogo" AS "brandLogo", b."primaryColor" AS "primaryColor",
         b."textColor" AS "textColor",
         (SELECT s.name FROM "User" AS s WHERE s.id = i."invitedById") AS "inviterName"
     )
     SELECT a.id AS "askedId", c.*,
       CASE WHEN c.id IS NULL THEN GREATEST($5::int,
         CEIL(EXTRACT(EPOCH FROM (COALESCE(o."sendingUntil", now.t) - now.t)) * 1000))::int END AS "heldMs"
     FROM now, (SELECT DISTINCT id FROM unnest($1::int[]) AS x(id)) AS a
       LEFT JOIN claimed AS c ON c.id = a.id
       LEFT JOIN "Invite" AS o ON o.id = a.id AND o."sentAt" IS NULL AND o."failedAt" IS NULL
         AND o."usedAt" IS NULL
     WHERE c.id IS NOT NULL OR o.id IS NOT NULL`,
    inviteIds,
    leaseMs,
    nonces,
    nonces.map((nonce) => inviteTokenHash(deps.signingSecret, nonce)),
    INVITE_HELD_MIN_WAIT_MS,
  );
  const claimed: ClaimedInvite[] = [];
  const held = new Map<number, number>();
  for (const { askedId, heldMs, ...row } of rows) {
    if (heldMs === null) claimed.push(row);
    else held.set(askedId, heldMs);
  }
  return { claimed, held };
}

/** Steps 2 and 3 for a row this attempt claimed (claimInvites). */
export async function deliverClaimed(
  deps: SendInviteDeps,
  invite: ClaimedInvite,
): Promise<SendInviteOutcome> {
  const inviteId = invite.id;
  // Settled without an e-mail, so a batch's progress still reaches its total.
  if (invite.deletedAt) {
    await markInviteFailed(deps.db, inviteId, INVITE_NOT_SENT.userDeleted);
    return 'skipped';
  }
  if (invite.expired) {
    await markInviteFailed(deps.db, inviteId, INVITE_NOT_SENT.retired);
    return 'skipped';
  }
  const token = await tokenUnderThisSecret(deps, inviteId, invite);

  try {
    // The school's look (name, logo, colours), as on its other pages.
    const brand = presentMailBrand(
      { name: invite.tenantName, isPlatform: invite.isPlatform, customBrandName: invite.customBrandName },
      invite,
      deps.publicUrl,
    );
    // An address with an account elsewhere gets a notice instead of an invitation, with no link
    // (docs/invite-privacy.md); the same claim, lease and sentAt keep it to one e-mail.
    await sendTemplateMail(
      deps.transport,
      deps.mailFrom,
      invite.elsewhere
        ? {
            template: 'invite-elsewhere',
            to: invite.email,
            vars: {
              name: invite.name,
              email: invite.email,
              tenantName: invite.tenantName,
              inviterName: invite.inviterName ?? '',
            },
            brand,
          }
        : {
            template: 'invite',
            to: invite.email,
            vars: {
              name: invite.name,
              link: inviteLink(deps.publicUrl, token),
              tenantName: invite.tenantName,
              inviterName: invite.inviterName ?? '',
              expiresAt: invite.expiresAt.toISOString(),
            },
            brand,
          },
      deps.logos,
    );
  } catch (error) {
    // Not taken by the SMTP server: the next attempt need not wait for the lease.
    await releaseInvites(deps.db, [inviteId]).catch(() => undefined);
    throw error;
  }
  await (deps.markSent ?? ((id: number) => markInviteSent(deps.db, id)))(inviteId);
  return 'sent';
}

/** Ends this attempt's lease on rows it will not send now (not sent yet), so another may claim them. */
export async function releaseInvites(db: Db, inviteIds: readonly number[]): Promise<void> {
  if (inviteIds.length === 0) return;
  await db.$executeRawUnsafe(
    `UPDATE "Invite" SET "sendingUntil" = NULL WHERE id = ANY($1::int[]) AND "sentAt" IS NULL`,
    inviteIds,
  );
}

export interface ClaimedInvite {
  id: number;
  nonce: string;
  tokenHash: string;
  expired: boolean;
  name: string;
  /** The address mailed: the invited one (for an invite of an address elsewhere, `elsewhereEmail`). */
  email: string;
  elsewhere: boolean;
  deletedAt: Date | null;
  tenantName: string;
  inviterName: string | null;
  expiresAt: Date;
  isPlatform: boolean;
  customBrandName: string | null;
  brandLogo: string | null;
  primaryColor: string | null;
  textColor: string | null;
}

/**
 * The row's token (its link's), derived from its nonce, when the stored hash is this secret's
 * derivation of it. After SIGNING_SECRET changed, no link derived now would match the stored hash: an
 * unsent row gets a new nonce (only a copy a crash left unmarked, mailed under the old secret, stops
 * working).
 */
async function tokenUnderThisSecret(
  deps: SendInviteDeps,
  inviteId: number,
  invite: ClaimedInvite,
): Promise<string> {
  const token = inviteToken(deps.signingSecret, invite.nonce);
  if (sha256(token) === invite.tokenHash) return token;
  const nonce = newInviteNonce();
  await deps.db.$executeRaw`
    UPDATE "Invite" SET "tokenNonce" = ${nonce}, "tokenHash" = ${inviteTokenHash(deps.signingSecret, nonce)}
    WHERE id = ${inviteId} AND "tokenNonce" = ${invite.nonce}`;
  return inviteToken(deps.signingSecret, nonce);
}

/**
 * The row is sent, and its batch counts it, in one statement (so a crash cannot count a row twice or
 * not at all); the row that completes the batch marks it done.
 */
export async function markInviteSent(db: Db, inviteId: number): Promise<void> {
  await markInvitesSent(db, [inviteId]);
}

/**
 * markInviteSent for several rows in one statement: the rows are sent and each batch counts its rows
 * (a row settled already is not counted again); the statement that completes a batch marks it done.
 */
export async function markInvitesSent(db: Db, inviteIds: readonly number[]): Promise<void> {
  if (inviteIds.length === 0) return;
  await db.$executeRawUnsafe(
    `WITH settled AS (
       UPDATE "Invite" SET "sentAt" = ${DB_NOW}, "sendingUntil" = NULL
       WHERE id = ANY($1::int[]) AND "sentAt" IS NULL AND "failedAt" IS NULL
       RETURNING "batchId"
     ),
     counted AS (
       SELECT "batchId", COUNT(*)::int AS n FROM settled WHERE "batchId" IS NOT NULL GROUP BY "batchId"
     )
     UPDATE "BulkInviteBatch" AS b SET processed = b.processed + c.n,
       status = CASE WHEN b.processed + c.n + b.failed >= b.total THEN 'done'::"BulkInviteStatus" ELSE b.status END,
       "finishedAt" = CASE WHEN b.processed + c.n + b.failed >= b.total THEN ${DB_NOW} ELSE b."finishedAt" END
     FROM counted AS c WHERE b.id = c."batchId"`,
    inviteIds,
  );
}

/**
 * After the last attempt (or a refusal no retry would change): the row is failed with the reason, and
 * its batch counts it (the row that completes the batch marks it done).
 */
export async function markInviteFailed(db: Db, inviteId: number, reason: string): Promise<void> {
  await db.$executeRawUnsafe(
    `WITH settled AS (
       UPDATE "Invite" SET "failedAt" = ${DB_NOW}, "failReason" = $2, "sendingUntil" = NULL
       WHERE id = $1 AND "sentAt" IS NULL AND "failedAt" IS NULL
       RETURNING "batchId"
     )
     UPDATE "BulkInviteBatch" AS b SET failed = b.failed + 1,
       status = CASE WHEN b.processed + b.failed + 1 >= b.total THEN 'done'::"BulkInviteStatus" ELSE b.status END,
       "finishedAt" = CASE WHEN b.processed + b.failed + 1 >= b.total THEN ${DB_NOW} ELSE b."finishedAt" END
     FROM settled WHERE b.id = settled."batchId"`,
    inviteId,
    reason.slice(0, 500),
  );
}

/** An SMTP answer that a retry will not change (5xx: unknown mailbox, refused address...). */
export const isPermanentSmtpError = (error: unknown): boolean => {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

/** A failure no retry changes: an SMTP refusal (5xx), or variables the template refuses. */
export const isPermanentSendError = (error: unknown): boolean =>
  isPermanentSmtpError(error) || error instanceof ZodError;

/** Why a send failed, as the bulk invite page lists it: the SMTP server's answer, else the error. */
export const sendFailureReason = (error: unknown): string => {
  const smtp = error as { responseCode?: number; response?: string } | null;
  if (smtp && typeof smtp.responseCode === 'number' && smtp.response) return smtp.response;
  return error instanceof Error ? error.message : String(error);
};
