import { Transform, type TransformCallback } from 'node:stream';
import nodemailer, { type Transporter } from 'nodemailer';
import type { SendEmailPayload } from '@helix/shared';
import type { MailLook } from './layout.ts';
import type { MailLogos } from './mail-logo.ts';
import { renderMail } from './templates.ts';

/**
 * How long a silent SMTP server is waited for (ms) unless SMTP_URL sets its own: well within an
 * invitation's send lease (INVITE_SEND_LEASE_MS), so an attempt gives up before another may claim.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/** SMTP_URL, e.g. smtp://127.0.0.1:1025 or smtps://user:pass@host:465 (nodemailer URL options allowed). */
export function createMailTransport(
  smtpUrl: string,
  options: { pool?: boolean; maxConnections?: number } = {},
): Transporter {
  const url = new URL(smtpUrl);
  for (const [name, ms] of Object.entries(SMTP_TIMEOUTS)) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, String(ms));
  }
  if (options.pool) {
    // A pool keeps connections open across messages (bulk invites): no connect and greeting per e-mail.
    url.searchParams.set('pool', 'true');
    url.searchParams.set('maxConnections', String(options.maxConnections ?? 10));
    url.searchParams.set('maxMessages', 'Infinity');
  }
  return sendWholeMessages(nodemailer.createTransport(url.toString()));
}

/**
 * Each message leaves in one write: nodemailer streams a message as many small chunks (a header, a
 * boundary, a line of encoded text...), each its own write to the socket, the largest CPU cost of a
 * bulk invite. The bytes are the same, only gathered (a message is a few kB; an inline logo at most
 * MAIL_LOGO_MAX_BYTES).
 */
export function sendWholeMessages(transport: Transporter): Transporter {
  transport.use('stream', (mail, done) => {
    mail.message.transform(() => new WholeMessage());
    done();
  });
  return transport;
}

/** Passes a message's bytes on as one chunk at its end. */
class WholeMessage extends Transform {
  private readonly chunks: Buffer[] = [];

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback) {
    this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    done();
  }

  override _flush(done: TransformCallback) {
    done(null, Buffer.concat(this.chunks));
  }
}

/**
 * Renders a template e-mail and hands it to the SMTP server. A school's logo travels inside the message
 * as an inline PNG part that the HTML shows by its Content-ID (mail-logo.ts); without one (no logo, or
 * none could be made) the header names the school in text.
 */
export async function sendTemplateMail(
  transport: Transporter,
  from: string,
  payload: SendEmailPayload,
  logos: MailLogos,
) {
  const { brand } = payload;
  const logo = brand?.logoUrl ? await logos.inline(brand.logoUrl) : null;
  const look: MailLook | undefined = brand && {
    name: brand.name,
    primaryColor: brand.primaryColor,
    textColor: brand.textColor,
    logo: logo ? { src: `cid:${logo.cid}`, width: logo.width, height: logo.height } : undefined,
  };
  const mail = renderMail(payload.template, payload.vars, look);
  return transport.sendMail({
    from,
    to: payload.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    // With a cid, nodemailer puts the part beside the HTML in a multipart/related body.
    attachments: logo
      ? [
          {
            filename: 'logo.png',
            content: logo.png,
            contentType: 'image/png',
            cid: logo.cid,
            contentDisposition: 'inline',
          },
        ]
      : undefined,
  });
}
