import { z } from 'zod';
import { renderLayout, type MailLook, type RenderedMail } from '../layout.ts';
import { httpLink } from './vars.ts';

/** Forgot password: the set-password link, single use, with its lifetime. */
export const PasswordResetVars = z.object({
  name: z.string(),
  link: httpLink,
  ttlMinutes: z.string().default('60'),
});

export function passwordResetMail(raw: Record<string, string>, brand?: MailLook): RenderedMail {
  const v = PasswordResetVars.parse(raw);
  const account = brand ? `your ${brand.name} account on Helix` : 'your Helix account';
  const lines = [
    `Hello ${v.name},`,
    `Someone asked to set a new password for ${account}.`,
    `Open the link below to choose a new password. It works once and expires in ${v.ttlMinutes} minutes.`,
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  ];
  return renderLayout('Set your Helix password', lines, { label: 'Set a new password', link: v.link }, brand);
}
