import { UnrecoverableError } from 'bullmq';
import { isPermanentSmtpError } from '@helix/server/invites/send-invite';
import { sendSupportRequestMails, type SupportMailDeps } from '@helix/server/support/send-support-request';
import type { JobHandler } from '../registry.ts';

/**
 * send-support-request: the request's e-mail to the support address and the user's confirmation, each
 * at most once (sent markers on the row). An SMTP outage throws and the queue retries with backoff
 * (JOB_OPTIONS); an address the SMTP server refuses for good (5xx) is not retried.
 */
export function sendSupportRequestHandler(deps: SupportMailDeps): JobHandler<'send-support-request'> {
  return async ({ requestId }) => {
    try {
      return (await sendSupportRequestMails(deps, requestId)) ?? { skipped: 'request not found' };
    } catch (error) {
      if (isPermanentSmtpError(error)) {
        throw new UnrecoverableError(`Support request ${requestId}: refused by the SMTP server`);
      }
      throw error;
    }
  };
}
