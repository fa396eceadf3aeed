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

/** What an uploaded image is for: decides its size and dimension limits and how it is re-encoded. */
export const IMAGE_PURPOSES = [
  'thumbnail',
  'logo',
  'loading',
  'background',
  'profile',
  'screenshot',
] as const;
export type ImagePurpose = (typeof IMAGE_PURPOSES)[number];

/**
 * validate-image: the API stored an upload under a temporary key (`tmp/<id>`); the worker checks it by
 * content with sharp, writes the re-encoded image to `images/<purpose>-<id>.webp` and deletes the
 * upload. The API waits for the result (ValidateImageResult) while the request is open.
 */
export const ValidateImagePayload = z.object({
  key: z.string().regex(/^tmp\/[A-Za-z0-9_-]{8,100}$/),
  purpose: z.enum(IMAGE_PURPOSES),
});
export type ValidateImagePayload = z.infer<typeof ValidateImagePayload>;

export const ValidateImageResult = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    /** Storage key of the re-encoded image (`images/<name>`). */
    key: z.string(),
    contentType: z.string(),
    width: z.number().int(),
    height: z.number().int(),
  }),
  /** The image was refused: `message` is the user-facing reason (MSG). */
  z.object({ ok: z.literal(false), message: z.string() }),
]);
export type ValidateImageResult = z.infer<typeof ValidateImageResult>;

/**
 * flush-views: moves the view counts buffered in Redis to ModelViewDaily, exactly once. Repeated by a
 * job scheduler (VIEW_FLUSH_INTERVAL_MS); the worker also flushes on start and on shutdown.
 */
export const FlushViewsPayload = z.object({
  reason: z.enum(['schedule', 'start', 'shutdown', 'manual']).default('schedule'),
});
export type FlushViewsPayload = z.infer<typeof FlushViewsPayload>;

/**
 * send-invite: one invitation e-mail for an Invite row (single invite, resend). The worker makes the
 * link's token when it sends (only its sha256 is stored) and marks the row sent after the SMTP server
 * accepted it; a row already sent, retired, used or failed is skipped, so a retry never sends twice.
 */
export const SendInvitePayload = z.object({ inviteId: z.number().int().positive() });
export type SendInvitePayload = z.infer<typeof SendInvitePayload>;

/**
 * The bulk-invite queue (its own queue and worker, so a 10,000-row batch never delays a password
 * reset): `bulk-invite-dispatch` adds one `bulk-invite-row` job per unsent invite of the batch (jobId
 * `invite-<inviteId>`, so a second dispatch adds nothing new); each row job is a send-invite.
 */
export const BULK_INVITE_QUEUE = 'bulk-invite';
export const BulkInviteDispatchPayload = z.object({ batchId: z.number().int().positive() });
export const BulkInviteRowPayload = z.object({
  batchId: z.number().int().positive(),
  inviteId: z.number().int().positive(),
});
export const BULK_INVITE_JOBS = {
  dispatch: { name: 'bulk-invite-dispatch', payload: BulkInviteDispatchPayload },
  row: { name: 'bulk-invite-row', payload: BulkInviteRowPayload },
} as const;

/**
 * billing-email: a billing e-mail to the tenant's owner, queued by the Stripe webhook after the
 * event's transaction committed (jobId billing-email-<eventId>: one e-mail per event).
 */
export const BillingEmailPayload = z.object({
  kind: z.enum(['payment-failed', 'trial-ending']),
  tenantId: z.number().int().positive(),
  eventId: z.string().min(1).max(255),
});
export type BillingEmailPayload = z.infer<typeof BillingEmailPayload>;

/**
 * reconcile-billing: re-reads the live subscriptions from Stripe and converges the stored state, so a
 * missed webhook heals by itself. Repeated by a job scheduler (BILLING_RECONCILE_INTERVAL_MS); with a
 * tenantId, only that tenant.
 */
export const ReconcileBillingPayload = z.object({
  reason: z.enum(['schedule', 'start', 'manual']).default('schedule'),
  tenantId: z.number().int().positive().optional(),
});
export type ReconcileBillingPayload = z.infer<typeof ReconcileBillingPayload>;

/**
 * send-support-request: e-mails a stored SupportRequest to SUPPORT_EMAIL (tenant, plan and user
 * attached; `[Priority]` and the target in the subject for fast-track) and a confirmation copy to the
 * user. Queued after the row is stored (jobId support-<id>). Each e-mail has its own sent marker on the
 * row, checked before sending: a retry after one of the two went out sends only the other.
 */
export const SendSupportRequestPayload = z.object({ requestId: z.number().int().positive() });
export type SendSupportRequestPayload = z.infer<typeof SendSupportRequestPayload>;

/**
 * billing-receipt: the receipt e-mail of a paid invoice (HTML, amount, link to the invoice), queued
 * by the webhook on invoice.paid (jobId billing-receipt-<invoiceId>). The handler claims a
 * BillingReceipt row before sending and marks it sent after, so one invoice gets one receipt.
 */
export const BillingReceiptPayload = z.object({
  tenantId: z.number().int().positive(),
  invoiceId: z.string().min(1).max(255),
});
export type BillingReceiptPayload = z.infer<typeof BillingReceiptPayload>;

/**
 * billing-action-required: asks the owner to complete a payment that needs 3-D Secure, with a link to
 * the invoice's hosted page. Queued by the webhook on invoice.payment_action_required, delayed by
 * BILLING_ACTION_MAIL_DELAY_MS (jobId billing-action-<invoiceId>); sent only if the invoice still
 * waits for the customer then.
 */
export const BillingActionRequiredPayload = z.object({
  tenantId: z.number().int().positive(),
  invoiceId: z.string().min(1).max(255),
});
export type BillingActionRequiredPayload = z.infer<typeof BillingActionRequiredPayload>;

export const JOBS = {
  sendEmail: { name: 'send-email', payload: SendEmailPayload },
  validateImage: { name: 'validate-image', payload: ValidateImagePayload },
  flushViews: { name: 'flush-views', payload: FlushViewsPayload },
  sendInvite: { name: 'send-invite', payload: SendInvitePayload },
  billingEmail: { name: 'billing-email', payload: BillingEmailPayload },
  reconcileBilling: { name: 'reconcile-billing', payload: ReconcileBillingPayload },
  billingReceipt: { name: 'billing-receipt', payload: BillingReceiptPayload },
  billingActionRequired: { name: 'billing-action-required', payload: BillingActionRequiredPayload },
  sendSupportRequest: { name: 'send-support-request', payload: SendSupportRequestPayload },
} as const;

export type JobName = (typeof JOBS)[keyof typeof JOBS]['name'];
