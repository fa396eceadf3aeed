import { z } from 'zod';
import { renderLayout, type MailLook, type RenderedMail } from '../layout.ts';
import { httpLink } from './vars.ts';

/** Welcome, with an optional link to open the portal. */
export const WelcomeVars = z.object({ name: z.string(), link: httpLink.optional() });

export function welcomeMail(raw: Record<string, string>, brand?: MailLook): RenderedMail {
  const v = WelcomeVars.parse(raw);
  const lines = [`Hello ${v.name},`, brand ? `Welcome to ${brand.name} on Helix.` : 'Welcome to Helix.'];
  return renderLayout(
    brand ? `Welcome to ${brand.name} on Helix` : 'Welcome to Helix',
    lines,
    v.link ? { label: 'Open Helix', link: v.link } : undefined,
    brand,
  );
}
