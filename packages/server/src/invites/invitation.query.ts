import type { InvitationSchool, InvitationView } from '@helix/shared/schemas/invitation';
import type { Db } from '../db.ts';
import { presentBrandingLook } from '../presenters/branding.presenter.ts';
import { sha256 } from '../tokens.ts';

/**
 * GET /user/invitation: what an invitation link opens, said before the invitee types anything. The
 * token (256 bits, only its sha256 is stored) is the only key: the answer names the school, its look,
 * the invitee's own e-mail and name and the expiry, nothing of another invitation or tenant. A token
 * no row has, or whose user was removed, is `invalid` with nothing more.
 */
export async function lookupInvitation(db: Db, token: string, now = new Date()): Promise<InvitationView> {
  const invite = await db.invite.findUnique({
    where: { tokenHash: sha256(token) },
    select: {
      expiresAt: true,
      usedAt: true,
      user: { select: { email: true, name: true, deletedAt: true } },
      invitedBy: { select: { name: true, deletedAt: true } },
      tenant: { select: { name: true, branding: true } },
    },
  });
  if (!invite || invite.user.deletedAt) return { state: 'invalid' };
  const look = presentBrandingLook(invite.tenant.branding);
  const school: InvitationSchool = {
    name: invite.tenant.name,
    brandLogo: look.brandLogo,
    primaryColor: look.primaryColor,
    textColor: look.textColor,
    backgroundColor: look.backgroundColor,
  };
  if (invite.usedAt) return { state: 'used', school };
  const expiresAt = invite.expiresAt.toISOString();
  if (invite.expiresAt <= now) {
    const inviter = invite.invitedBy && !invite.invitedBy.deletedAt ? invite.invitedBy.name : null;
    return { state: 'expired', school, inviterName: inviter, expiresAt };
  }
  return { state: 'open', school, email: invite.user.email, name: invite.user.name, expiresAt };
}
