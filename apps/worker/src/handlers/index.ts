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
  };
}
