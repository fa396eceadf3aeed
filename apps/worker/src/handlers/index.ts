import type { Transporter } from 'nodemailer';
import type { JobHandlers } from '../registry.ts';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import type { Db } from '@helix/server/db';
import type { Redis } from '@helix/server/redis';
import type { Storage } from '@helix/server/storage/storage';
import { sendEmailHandler } from './send-email.handler.ts';
import { flushViewsHandler } from './flush-views.handler.ts';
import { validateImageHandler } from './validate-image.handler.ts';
import { sendInviteHandler } from './send-invite.handler.ts';
import type { SendInviteDeps } from '@helix/server/invites/send-invite';
import type { BillingDeps } from '@helix/server/billing/tenant-billing';
import { billingEmailHandler } from './billing-email.handler.ts';
import { reconcileBillingHandler } from './reconcile-billing.handler.ts';
import { billingReceiptHandler } from './billing-receipt.handler.ts';
import { billingActionRequiredHandler } from './billing-action-required.handler.ts';
import type { SupportMailDeps } from '@helix/server/support/send-support-request';
import { sendSupportRequestHandler } from './send-support-request.handler.ts';

/** What the model jobs (validate-image, flush-views) need. */
export interface ModelJobDeps {
  db: Db;
  redis: Redis;
  storage: Storage;
  /** REDIS_PREFIX */
  prefix: string;
  logger?: Logger;
}

export interface HandlerDeps {
  transport: Transporter;
  mailFrom: string;
  /** Without it the model jobs fail (unrecoverably): a worker that runs them must pass it. */
  models?: ModelJobDeps;
  /** Without it send-invite fails (unrecoverably): the worker's main passes it. */
  invites?: SendInviteDeps;
  /** Without it the billing jobs fail (unrecoverably): a worker that runs them must pass it. */
  billing?: BillingDeps;
  /** Without it send-support-request fails (unrecoverably): the worker's main passes it. */
  support?: SupportMailDeps;
}

const notConfigured = (name: string) => async () => {
  throw new UnrecoverableError(`${name}: the worker was started without the model job dependencies`);
};

/** Every job's handler. Adding a job to JOBS without a handler here fails the type check and the start. */
export function buildHandlers(deps: HandlerDeps): JobHandlers {
  return {
    'send-email': sendEmailHandler({ transport: deps.transport, from: deps.mailFrom }),
    'validate-image': deps.models ? validateImageHandler(deps.models) : notConfigured('validate-image'),
    'flush-views': deps.models ? flushViewsHandler(deps.models) : notConfigured('flush-views'),
    'send-invite': deps.invites ? sendInviteHandler(deps.invites) : notConfigured('send-invite'),
    'billing-email': deps.billing
      ? billingEmailHandler({ transport: deps.transport, from: deps.mailFrom, billing: deps.billing })
      : notConfigured('billing-email'),
    'reconcile-billing': deps.billing
      ? reconcileBillingHandler(deps.billing)
      : notConfigured('reconcile-billing'),
    'billing-receipt': deps.billing
      ? billingReceiptHandler({ transport: deps.transport, from: deps.mailFrom, billing: deps.billing })
      : notConfigured('billing-receipt'),
    'billing-action-required': deps.billing
      ? billingActionRequiredHandler({
          transport: deps.transport,
          from: deps.mailFrom,
          billing: deps.billing,
        })
      : notConfigured('billing-action-required'),
    'send-support-request': deps.support
      ? sendSupportRequestHandler(deps.support)
      : notConfigured('send-support-request'),
  };
}
