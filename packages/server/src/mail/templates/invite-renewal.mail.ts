import { z } from 'zod';
import { renderLayout, type MailLook, type RenderedMail } from '../layout.ts';
import { httpLink } from './vars.ts';

/**
 * To the inviter (else the school's owner): an invitee opened an expired invitation and asks for a new
 * one; the link opens the users list, where Resend Email sends it.
 */
export const InviteRenewalVars = z.object({
  name: z.string(),
  inviteeName: z.string(),
  inviteeEmail: z.string(),
  tenantName: z.string(),
  link: httpLink,
});

export function inviteRenewalMail(raw: Record<string, string>, brand?: MailLook): RenderedMail {
  const v = InviteRenewalVars.parse(raw);
  const lines = [
    `Hello ${v.name},`,
    `${v.inviteeName} (${v.inviteeEmail}) opened their invitation to ${v.tenantName} after it had expired, and asks for a new one.`,
    `To send it, open the users list and choose Resend Email beside ${v.inviteeName}. If they should not join, you can ignore this e-mail.`,
  ];
  return renderLayout(
    `${v.inviteeName} asks for a new invitation to ${v.tenantName}`,
    lines,
    { label: 'Open the users list', link: v.link },
    brand,
  );
}
