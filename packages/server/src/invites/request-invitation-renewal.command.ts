import { JOBS, MSG } from '@helix/shared';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { presentMailBrand } from '../mail/mail-brand.ts';
import { redisKey } from '../redis.ts';
import { sha256 } from '../tokens.ts';

/** One request per invitation within this time: a second click, or a reload, sends nothing more. */
const ONE_REQUEST_PER_MS = 24 * 3600_000;

/**
 * POST /user/invitation/renewal-request (no session): the holder of an EXPIRED invitation link asks
 * the school for a new one. The inviter, when still a user of the school, else its owner, gets an
 * e-mail in the school's look naming the invitee and linking the users list (where Resend Email makes
 * a new link, mailed to the invitee's address, never to the requester). Only an expired invitation of
 * a user still there may ask; at most one e-mail per invitation a day; when a newer invitation is
 * still open (a resend), the answer says so and nobody is e-mailed. The answer names the school,
 * which the expired page already shows.
 */
export async function requestInvitationRenewal(
  deps: Pick<ServerDeps, 'db' | 'queue' | 'config' | 'redis'>,
  token: string,
  now = new Date(),
): Promise<{ message: string }> {
  const invite = await deps.db.invite.findUnique({
    where: { tokenHash: sha256(token) },
    select: {
      id: true,
      tenantId: true,
      userId: true,
      expiresAt: true,
      usedAt: true,
      user: { select: { name: true, email: true, deletedAt: true } },
      invitedBy: { select: { id: true, name: true, email: true, tenantId: true, deletedAt: true } },
      tenant: { select: { name: true, isPlatform: true, customBrandName: true, branding: true } },
    },
  });
  if (!invite || invite.usedAt || invite.user.deletedAt || invite.expiresAt > now) {
    throw AppError.badRequest(MSG.inviteInvalid, { token: MSG.inviteInvalid });
  }
  // Replaced by a resend that is still open: that e-mail is the way in, nobody needs asking.
  const newer = await deps.db.invite.count({
    where: { userId: invite.userId, usedAt: null, expiresAt: { gt: now } },
  });
  if (newer > 0) return { message: MSG.invitationNewerSent };
  const answer = { message: MSG.invitationAsked(invite.tenant.name) };
  const inviter =
    invite.invitedBy && !invite.invitedBy.deletedAt && invite.invitedBy.tenantId === invite.tenantId
      ? invite.invitedBy
      : await deps.db.user.findFirst({
          where: { tenantId: invite.tenantId, isOwner: true, deletedAt: null },
          select: { id: true, name: true, email: true },
        });
  if (!inviter) return answer;

  const once = redisKey(deps.config.REDIS_PREFIX, 'invite-renewal', String(invite.id));
  if ((await deps.redis.set(once, '1', 'PX', ONE_REQUEST_PER_MS, 'NX')) !== 'OK') return answer;
  try {
    const publicUrl = deps.config.PUBLIC_URL.replace(/\/+$/, '');
    await deps.queue.enqueue(
      JOBS.sendEmail,
      {
        template: 'invite-renewal',
        to: inviter.email,
        vars: {
          name: inviter.name,
          inviteeName: invite.user.name,
          inviteeEmail: invite.user.email,
          tenantName: invite.tenant.name,
          link: `${publicUrl}/user/settings/users-list`,
        },
        brand: presentMailBrand(invite.tenant, invite.tenant.branding, deps.config.PUBLIC_URL),
      },
      `invite-renewal-${invite.id}-${Math.floor(now.getTime() / ONE_REQUEST_PER_MS)}`,
    );
  } catch (error) {
    // No e-mail will come: the invitee may ask again at once.
    await deps.redis.del(once).catch(() => undefined);
    throw error;
  }
  return answer;
}
