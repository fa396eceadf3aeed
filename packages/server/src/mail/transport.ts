import nodemailer, { type Transporter } from 'nodemailer';
import type { SendEmailPayload } from '@helix/shared';
import { renderMail } from './templates.ts';

/** SMTP_URL, e.g. smtp://127.0.0.1:1025 or smtps://user:pass@host:465 (nodemailer URL options allowed). */
export function createMailTransport(
  smtpUrl: string,
  options: { pool?: boolean; maxConnections?: number } = {},
): Transporter {
  if (!options.pool) return nodemailer.createTransport(smtpUrl);
  // A pool keeps connections open across messages (bulk invites): no connect and greeting per e-mail.
  const url = new URL(smtpUrl);
  url.searchParams.set('pool', 'true');
  url.searchParams.set('maxConnections', String(options.maxConnections ?? 10));
  url.searchParams.set('maxMessages', 'Infinity');
  return nodemailer.createTransport(url.toString());
}

export async function sendTemplateMail(transport: Transporter, from: string, payload: SendEmailPayload) {
  const mail = renderMail(payload.template, payload.vars);
  return transport.sendMail({
    from,
    to: payload.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
  });
}
