import type { Transporter } from 'nodemailer';
import type { Db } from '../db.ts';
import type { Storage } from '../storage/storage.ts';
import { supportConfirmationMail, supportTeamMail, type SupportMailFacts } from './support-mail.ts';

export interface SupportMailDeps {
  db: Db;
  transport: Transporter;
  mailFrom: string;
  /** SUPPORT_EMAIL */
  supportEmail: string;
  /** PUBLIC_URL: the admin Support page's link in the e-mail. */
  publicUrl: string;
  storage: Storage;
}

export interface SupportMailOutcome {
  support: 'sent' | 'already-sent';
  confirmation: 'sent' | 'already-sent';
}

/**
 * Sends a stored request's two e-mails, each at most once: the one to the support address, then the
 * confirmation to the user. Each has a sent marker on the row, read before and written right after the
 * SMTP server accepted it, so a retry after a partial success (the support mail went, the confirmation
 * failed) sends only what is missing. As with invitations, the one window left is a crash between the
 * SMTP accept and the marker write (at least once, never lost). Null when the request no longer exists.
 */
export async function sendSupportRequestMails(
  deps: SupportMailDeps,
  requestId: number,
): Promise<SupportMailOutcome | null> {
  const row = await deps.db.supportRequest.findUnique({
    where: { id: requestId },
    include: {
      tenant: { include: { subscription: { include: { plan: { select: { name: true } } } } } },
      user: { select: { id: true, name: true, email: true } },
    },
  });
  if (!row) return null;
  const facts: SupportMailFacts = {
    ...row,
    currentPlanName: row.tenant.subscription?.plan?.name ?? null,
    tenant: { id: row.tenant.id, name: row.tenant.name, domainPrefix: row.tenant.domainPrefix },
  };
  const outcome: SupportMailOutcome = { support: 'already-sent', confirmation: 'already-sent' };

  if (!row.supportMailSentAt) {
    const screenshot = row.screenshotKey ? await deps.storage.getBytes(row.screenshotKey) : null;
    const mail = supportTeamMail(facts, new URL('/support', deps.publicUrl).toString());
    await deps.transport.sendMail({
      from: deps.mailFrom,
      to: deps.supportEmail,
      replyTo: `"${row.user.name.replace(/["\\]/g, '')}" <${row.user.email}>`,
      priority: row.priority ? 'high' : 'normal',
      ...mail,
      attachments: screenshot
        ? [{ filename: `screenshot-${row.id}.webp`, content: screenshot, contentType: 'image/webp' }]
        : [],
    });
    await deps.db.supportRequest.updateMany({
      where: { id: row.id, supportMailSentAt: null },
      data: { supportMailSentAt: new Date() },
    });
    outcome.support = 'sent';
  }

  if (!row.confirmationMailSentAt) {
    await deps.transport.sendMail({
      from: deps.mailFrom,
      to: row.user.email,
      ...supportConfirmationMail(facts),
    });
    await deps.db.supportRequest.updateMany({
      where: { id: row.id, confirmationMailSentAt: null },
      data: { confirmationMailSentAt: new Date() },
    });
    outcome.confirmation = 'sent';
  }
  return outcome;
}

/**
 * The requests whose e-mails have not all gone out (the worker's start-up sweep queues them again: a
 * request stored while Redis was unreachable is never lost). Oldest first.
 */
export async function unsentSupportRequestIds(db: Db, limit = 1000): Promise<number[]> {
  const rows = await db.supportRequest.findMany({
    where: { OR: [{ supportMailSentAt: null }, { confirmationMailSentAt: null }] },
    orderBy: { id: 'asc' },
    take: limit,
    select: { id: true },
  });
  return rows.map((r) => r.id);
}
