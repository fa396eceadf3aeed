import { MSG } from '@helix/shared';
import { z } from 'zod';
import { formatMailDate } from '../expiry.ts';
import { renderLayout, type MailLook, type RenderedMail } from '../layout.ts';
import { httpLink } from './vars.ts';

/** The invitation to join a school: the invitation page's link and when it expires. */
export const InviteVars = z.object({
  name: z.string(),
  link: httpLink,
  tenantName: z.string(),
  inviterName: z.string().default(''),
  /** ISO date-time; an invitation queued before expiry was said has none. */
  expiresAt: z.iso.datetime().optional(),
});

export function inviteMail(raw: Record<string, string>, brand?: MailLook): RenderedMail {
  const v = InviteVars.parse(raw);
  const by = v.inviterName ? `${v.inviterName} invited you` : 'You are invited';
  const lines = [
    `Hello ${v.name},`,
    `${by} to join ${v.tenantName} on Helix.`,
    'Open the link below to set your password and join.',
  ];
  if (v.expiresAt) lines.push(MSG.invitationExpiresAt(formatMailDate(new Date(v.expiresAt))));
  return renderLayout(
    `You are invited to ${v.tenantName} on Helix`,
    lines,
    { label: 'Accept the invitation', link: v.link },
    brand,
  );
}
