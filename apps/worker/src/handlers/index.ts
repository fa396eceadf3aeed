import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Db } from '@helix/server/db';
import type { Redis } from '@helix/server/redis';
import type { Storage } from '@helix/server/storage/storage';
import type { SendInviteDeps } from '@helix/server/invites/send-invite';
import type { BillingDeps } from '@helix/server/billing/tenant-billing';
import type { SupportMailDeps } from '@helix/server/support/send-support-request';
import type { JobQueue } from '@helix/server/queue/job-queue';
import type { JobHandlers } from '../registry.ts';
import { sendEmailHandler } from './send-email.handler.ts';
import { flushViewsHandler } from './flush-views.handler.ts';
import { validateImageHandler } from './validate-image.handler.ts';
import type { SvgLanes } from '../images/svg-lanes.ts';
import { sendInviteHandler } from './send-invite.handler.ts';
import { bulkInviteDispatchHandler } from './bulk-invite-dispatch.handler.ts';
import { bulkInviteRowHandler } from './bulk-invite-row.handler.ts';
import { bulkInviteRowsHandler } from './bulk-invite-rows.handler.ts';
import { billingEmailHandler } from './billing-email.handler.ts';
import { reconcileBillingHandler } from './reconcile-billing.handler.ts';
import { billingReceiptHandler } from './billing-receipt.handler.ts';
import { billingActionRequiredHandler } from './billing-action-required.handler.ts';
import { sendSupportRequestHandler } from './send-support-request.handler.ts';
import { usageAlertHandler } from './usage-alert.handler.ts';
import { passwordResetRequestHandler } from './password-reset-request.handler.ts';

/** What the model jobs (validate-image, flush-views) need. */
export interface ModelJobDeps {
  db: Db;
  redis: Redis;
  storage: Storage;
  /** REDIS_PREFIX */
  prefix: string;
  logger?: Logger;
}

/** Every handler's dependencies, all required: a worker that could not run a job does not start. */
export interface HandlerDeps {
  /** The image checks' SVG lanes in this process (svg-lanes.ts). */
  svgLanes?: SvgLanes;
  transport: Transporter;
  mailFrom: string;
  /** The producer: bulk-invite-dispatch adds the row jobs. */
  queue: JobQueue;
  models: ModelJobDeps;
  /** Single invitations (send-invite). */
  invites: SendInviteDeps;
  /** Bulk rows: the same, over a pooled SMTP transport. */
  bulkInvites: SendInviteDeps;
  billing: BillingDeps;
  support: SupportMailDeps;
}

/** Every job's handler. Declaring a job without a handler here fails the type check and the start. */
export function buildHandlers(deps: HandlerDeps): JobHandlers {
  return {
    'send-email': sendEmailHandler({
      transport: deps.transport,
      from: deps.mailFrom,
      logos: deps.invites.logos,
    }),
    'send-invite': sendInviteHandler(deps.invites),
    'password-reset-request': passwordResetRequestHandler({
      db: deps.models.db,
      redis: deps.models.redis,
      queue: deps.queue,
      config: deps.billing.config,
    }),
    'billing-email': billingEmailHandler({
      transport: deps.transport,
      from: deps.mailFrom,
      billing: deps.billing,
    }),
    'billing-receipt': billingReceiptHandler({
      transport: deps.transport,
      from: deps.mailFrom,
      billing: deps.billing,
    }),
    'billing-action-required': billingActionRequiredHandler({
      transport: deps.transport,
      from: deps.mailFrom,
      billing: deps.billing,
    }),
    'send-support-request': sendSupportRequestHandler(deps.support),
    'bulk-invite-dispatch': bulkInviteDispatchHandler({ db: deps.invites.db, queue: deps.queue }),
    'bulk-invite-rows': bulkInviteRowsHandler({ ...deps.bulkInvites, queue: deps.queue }),
    'bulk-invite-row': bulkInviteRowHandler(deps.bulkInvites),
    'validate-image': validateImageHandler({ ...deps.models, svgLanes: deps.svgLanes }),
    'flush-views': flushViewsHandler(deps.models),
    'reconcile-billing': reconcileBillingHandler(deps.billing),
    'usage-alert': usageAlertHandler({
      db: deps.models.db,
      redis: deps.models.redis,
      prefix: deps.models.prefix,
      transport: deps.transport,
      from: deps.mailFrom,
      publicUrl: deps.billing.config.PUBLIC_URL,
      viewGracePercent: deps.billing.config.VIEW_GRACE_PERCENT,
    }),
  };
}
