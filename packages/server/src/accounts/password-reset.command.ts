import { JOBS, MSG } from '@helix/shared';
import { hashPassword } from '../auth/password.ts';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { redisKey } from '../redis.ts';
import { endUserSessions } from '../sessions/session.service.ts';
import { randomToken, sha256 } from '../tokens.ts';
import { withTransaction } from '../db/transaction.ts';
import { mailBrandOfTenant } from '../mail/mail-brand.ts';

/** A second request within this time does not send a second e-mail: the first is on its way. */
const RESEND_AFTER_MS = 60 * 1000;

/** The set-password page of the web app, with the brand suffix when the request came from one. */
export function setPasswordLink(publicUrl: string, token: string, brand?: string): string {
  const base = publicUrl.replace(/\/+$/, '');
  const path = brand ? `/set-password/${encodeURIComponent(brand)}` : '/set-password';
  return `${base}${path}?token=${encodeURIComponent(token)}`;
}

/**
 * Forgot password (POST /user/send_password_reset_token). The answer, and the work done before it, are
 * the same whether or not the address has an account (docs/invite-privacy.md): one job is queued
 * (password-reset-request; a double click within a minute collapses into it), and the worker decides
 * (issuePasswordReset). A queue outage answers the same error for every address.
 */
export async function sendPasswordResetToken(
  deps: Pick<ServerDeps, 'queue'>,
  input: { email: string; brand?: string },
  now = new Date(),
): Promise<{ message: string }> {
  const minute = Math.floor(now.getTime() / RESEND_AFTER_MS);
  await deps.queue.enqueue(
    JOBS.passwordResetRequest,
    input.brand ? { email: input.email, brand: input.brand } : { email: input.email },
    `reset-request-${sha256(`${input.email}\n${input.brand ?? ''}`).slice(0, 32)}-${minute}`,
  );
  return { message: MSG.resetEmailSent(input.email) };
}

/**
 * The worker's half of forgot password (job password-reset-request). For a known, active user: a
 * single-use token (stored as its sha256, valid RESET_TOKEN_TTL_MINUTES), then the e-mail job, enqueued
 * after the row is committed with jobId `reset-<row id>`. At most one e-mail a minute per user. An
 * unknown or deleted address: nothing.
 */
export async function issuePasswordReset(
  deps: Pick<ServerDeps, 'db' | 'queue' | 'config' | 'redis'>,
  input: { email: string; brand?: string },
  now = new Date(),
): Promise<'queued' | 'skipped'> {
  const answer = 'skipped' as const;
  const user = await deps.db.user.findUnique({ where: { email: input.email } });
  if (!user || user.deletedAt) return answer;

  // A double click (or a second request within a minute) does not send a second e-mail.
  const throttle = redisKey(deps.config.REDIS_PREFIX, 'reset-sent', String(user.id));
  const first = await deps.redis.set(throttle, '1', 'PX', RESEND_AFTER_MS, 'NX');
  if (first !== 'OK') return answer;

  const token = randomToken();
  const ttlMinutes = deps.config.RESET_TOKEN_TTL_MINUTES;
  const row = await deps.db.passwordResetToken.create({
    data: {
      userId: user.id,
      tokenHash: sha256(token),
      expiresAt: new Date(now.getTime() + ttlMinutes * 60_000),
      createdAt: now,
    },
  });
  try {
    await deps.queue.enqueue(
      JOBS.sendEmail,
      {
        template: 'password-reset',
        to: user.email,
        vars: {
          name: user.name,
          link: setPasswordLink(deps.config.PUBLIC_URL, token, input.brand),
          ttlMinutes: String(ttlMinutes),
        },
        // A school's user gets the school's look; a platform admin, Helix's.
        brand: await mailBrandOfTenant(deps.db, user.tenantId, deps.config.PUBLIC_URL),
      },
      `reset-${row.id}`,
    );
  } catch (error) {
    // No e-mail will come: drop the token so the person can ask again at once.
    await deps.db.passwordResetToken.delete({ where: { id: row.id } }).catch(() => undefined);
    await deps.redis.del(throttle).catch(() => undefined);
    throw error;
  }
  return 'queued';
}

const resetTokenInvalid = () => AppError.badRequest(MSG.resetTokenInvalid, { token: MSG.resetTokenInvalid });

/**
 * Set password with a reset token: the token is used up (with every other open token of the user) and
 * every session of the user ends, so a stolen session does not outlive the reset.
 */
export async function resetPassword(
  deps: Pick<ServerDeps, 'db'>,
  input: { token: string; password: string },
  now = new Date(),
): Promise<{ message: string }> {
  const row = await deps.db.passwordResetToken.findUnique({
    where: { tokenHash: sha256(input.token) },
    include: { user: { select: { deletedAt: true } } },
  });
  if (!row || row.usedAt || row.expiresAt <= now || row.user.deletedAt) throw resetTokenInvalid();
  const passwordHash = await hashPassword(input.password);

  await withTransaction(deps.db, async (tx) => {
    const used = await tx.passwordResetToken.updateMany({
      where: { id: row.id, usedAt: null },
      data: { usedAt: now },
    });
    if (used.count !== 1) throw resetTokenInvalid();
    await tx.user.update({ where: { id: row.userId }, data: { passwordHash } });
    await tx.passwordResetToken.updateMany({
      where: { userId: row.userId, usedAt: null },
      data: { usedAt: now },
    });
    await endUserSessions(tx, row.userId, 'password_reset');
  });
  return { message: MSG.passwordUpdated };
}
