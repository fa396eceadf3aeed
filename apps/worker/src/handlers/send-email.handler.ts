import { UnrecoverableError } from 'bullmq';
import type { Transporter } from 'nodemailer';
import { ZodError } from 'zod';
import type { MailLogos } from '@helix/server/mail/mail-logo';
import { sendTemplateMail } from '@helix/server/mail/transport';
import type { JobHandler } from '../registry.ts';

/** send-email: render the template and hand it to the SMTP server (retried by the queue on failure). */
export function sendEmailHandler(deps: {
  transport: Transporter;
  from: string;
  logos: MailLogos;
}): JobHandler<'send-email'> {
  return async (payload) => {
    try {
      await sendTemplateMail(deps.transport, deps.from, payload, deps.logos);
    } catch (error) {
      // Bad template variables will not get better on a retry.
      if (error instanceof ZodError)
        throw new UnrecoverableError(`Cannot render ${payload.template}: ${error.message}`);
      throw error;
    }
  };
}
