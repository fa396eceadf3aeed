import { z } from 'zod';

/**
 * Job contracts: a queue/job name and a zod payload schema each. Handlers live in apps/worker; the
 * worker refuses to start when a job here has no handler.
 */
export const QUEUE_NAME = 'helix';

export const SendEmailPayload = z.object({
  /** Which template to render. */
  template: z.enum(['password-reset', 'invite', 'welcome']),
  to: z.email(),
  /** Template variables (names, links). */
  vars: z.record(z.string(), z.string()),
});
export type SendEmailPayload = z.infer<typeof SendEmailPayload>;

export const JOBS = {
  sendEmail: { name: 'send-email', payload: SendEmailPayload },
} as const;

export type JobName = (typeof JOBS)[keyof typeof JOBS]['name'];
