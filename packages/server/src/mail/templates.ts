import { z } from 'zod';
import type { SendEmailPayload } from '@helix/shared';
import { renderInviteElsewhere } from './invite-elsewhere.template.ts';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** Every interpolated value goes through this in HTML: a name like `<script>` stays text. */
export const escapeHtml = (value: string): string =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const httpLink = z.url({ protocol: /^https?$/ });

const VARS = {
  'password-reset': z.object({ name: z.string(), link: httpLink, ttlMinutes: z.string().default('60') }),
  invite: z.object({
    name: z.string(),
    link: httpLink,
    tenantName: z.string(),
    inviterName: z.string().default(''),
  }),
  welcome: z.object({ name: z.string(), link: httpLink.optional() }),
} as const;

type Template = SendEmailPayload['template'];

/** The one HTML layout of a Helix e-mail: paragraphs and an optional button with its link spelled out. */
export const layout = (paragraphs: string[], action?: { label: string; link: string }) => {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const button = action
    ? `<p><a href="${escapeHtml(action.link)}" style="display:inline-block;padding:10px 18px;background:#5f51fb;color:#ffffff;text-decoration:none;border-radius:4px">${escapeHtml(action.label)}</a></p>\n<p style="font-size:12px;color:#666666">${escapeHtml(action.link)}</p>`
    : '';
  return `<!doctype html>\n<html><body style="font-family:Arial,Helvetica,sans-serif;color:#222222">\n${body}\n${button}\n</body></html>`;
};

/**
 * Renders one e-mail as plain text plus simple HTML. Unknown or missing variables throw (the job
 * then fails without retrying: a retry would not fix it).
 */
export function renderMail(template: Template, rawVars: Record<string, string>): RenderedMail {
  switch (template) {
    case 'password-reset': {
      const v = VARS['password-reset'].parse(rawVars);
      const lines = [
        `Hello ${v.name},`,
        'Someone asked to set a new password for your Helix account.',
        `Open the link below to choose a new password. It works once and expires in ${v.ttlMinutes} minutes.`,
        'If you did not ask for this, ignore this e-mail: your password stays as it is.',
      ];
      return {
        subject: 'Set your Helix password',
        text: `${lines.join('\n\n')}\n\n${v.link}\n`,
        html: layout(lines, { label: 'Set a new password', link: v.link }),
      };
    }
    case 'invite': {
      const v = VARS.invite.parse(rawVars);
      const by = v.inviterName ? `${v.inviterName} invited you` : 'You are invited';
      const lines = [
        `Hello ${v.name},`,
        `${by} to join ${v.tenantName} on Helix.`,
        'Open the link below to accept.',
      ];
      return {
        subject: `You are invited to ${v.tenantName} on Helix`,
        text: `${lines.join('\n\n')}\n\n${v.link}\n`,
        html: layout(lines, { label: 'Accept the invitation', link: v.link }),
      };
    }
    case 'invite-elsewhere':
      return renderInviteElsewhere(rawVars);
    case 'welcome': {
      const v = VARS.welcome.parse(rawVars);
      const lines = [`Hello ${v.name},`, 'Welcome to Helix.'];
      return {
        subject: 'Welcome to Helix',
        text: `${lines.join('\n\n')}\n${v.link ? `\n${v.link}\n` : ''}`,
        html: layout(lines, v.link ? { label: 'Open Helix', link: v.link } : undefined),
      };
    }
  }
}
