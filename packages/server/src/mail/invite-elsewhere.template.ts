import { z } from 'zod';
import { renderLayout, type MailLook, type RenderedMail } from './layout.ts';

/**
 * The notice sent instead of an invitation when a school invites an address that already has a Helix
 * account at another tenant (docs/invite-privacy.md). The school is never told; the address's owner
 * learns who invited them and how to join with another address. Nothing in it names the other tenant.
 */
export const InviteElsewhereVars = z.object({
  name: z.string(),
  email: z.string(),
  tenantName: z.string(),
  inviterName: z.string().default(''),
});

/** In the inviting school's look when it has one (the notice is from that school, not the other). */
export function inviteElsewhereMail(rawVars: Record<string, string>, brand?: MailLook): RenderedMail {
  const v = InviteElsewhereVars.parse(rawVars);
  const by = v.inviterName ? `${v.inviterName} invited you` : 'You were invited';
  const lines = [
    `Hello ${v.name},`,
    `${by} to join ${v.tenantName} on Helix with the address ${v.email}.`,
    'This address already has a Helix account, and an address can belong to one Helix account only, so this invitation cannot be accepted with it. Your account stays as it is.',
    `To join ${v.tenantName}, ask ${v.inviterName || 'the person who invited you'} to invite another of your e-mail addresses (for example your school address), then accept the invitation sent there.`,
    'If you did not expect this, ignore this e-mail.',
  ];
  return renderLayout(`You were invited to ${v.tenantName} on Helix`, lines, undefined, brand);
}
