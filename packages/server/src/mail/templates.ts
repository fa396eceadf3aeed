import type { SendEmailPayload } from '@helix/shared';
import { inviteElsewhereMail } from './invite-elsewhere.template.ts';
import { inviteMail } from './templates/invite.mail.ts';
import { inviteRenewalMail } from './templates/invite-renewal.mail.ts';
import { passwordResetMail } from './templates/password-reset.mail.ts';
import { welcomeMail } from './templates/welcome.mail.ts';
import type { MailLook, RenderedMail } from './layout.ts';

export { escapeHtml } from '../escape-html.ts';
export type { MailLogo, MailLook, RenderedMail } from './layout.ts';

type Template = SendEmailPayload['template'];

/** One file per template (templates/*.mail.ts); each parses its variables and takes the brand. */
const TEMPLATES: Record<Template, (vars: Record<string, string>, brand?: MailLook) => RenderedMail> = {
  'password-reset': passwordResetMail,
  invite: inviteMail,
  'invite-elsewhere': inviteElsewhereMail,
  welcome: welcomeMail,
  'invite-renewal': inviteRenewalMail,
};

/**
 * Renders one e-mail as plain text plus HTML, in the school's look when `brand` is given (else
 * Helix's); its logo only as `brand.logo` says (transport.ts puts it in the message). Unknown or missing variables throw (the job then fails without retrying: a retry would
 * not fix it).
 */
export function renderMail(
  template: Template,
  rawVars: Record<string, string>,
  brand?: MailLook,
): RenderedMail {
  return TEMPLATES[template](rawVars, brand);
}
