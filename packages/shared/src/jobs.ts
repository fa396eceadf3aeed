import { z } from 'zod';

/**
 * Job contracts, in Immich's shape: every job is declared once here with its payload schema and its
 * queue family; each family has its own BullMQ queue, worker, concurrency and retry policy, so mail,
 * image checks, the views flush and billing never wait behind each other. Handlers live in apps/worker
 * (the worker refuses to start when a job here has no handler); the one producer is
 * packages/server/src/queue/job-queue.ts.
 */

/**
 * How a family's failed jobs are retried: the delay doubles from `baseMs` and stops growing at
 * `capMs`; after `attempts` attempts the job fails for good (an invitation is then marked failed).
 */
export interface RetryPolicy {
  attempts: number;
  baseMs: number;
  capMs: number;
}

/** The wait before retry number `attemptsMade` (1 after the first failure): capped exponential. */
export function retryDelayMs(policy: Pick<RetryPolicy, 'baseMs' | 'capMs'>, attemptsMade: number): number {
  const exponent = Math.min(Math.max(attemptsMade - 1, 0), 30);
  return Math.min(policy.capMs, policy.baseMs * 2 ** exponent);
}

/** How long a job keeps being retried before it fails for good (the sum of its waits). */
export function retryWindowMs(policy: RetryPolicy): number {
  let total = 0;
  for (let made = 1; made < policy.attempts; made += 1) total += retryDelayMs(policy, made);
  return total;
}

/**
 * Every e-mail (single and bulk invitations, resets, billing and support mail): retried soon at first
 * (2 s doubling), then every 5 minutes, for about 2 h 45 min in all: a two-hour SMTP outage delays
 * mail but loses none, and the first retry after the server is back lands within 5 minutes.
 */
export const MAIL_RETRY: RetryPolicy = { attempts: 40, baseMs: 2_000, capMs: 5 * 60_000 };

export interface QueueFamily {
  /** The BullMQ queue's name. */
  queue: string;
  /** Jobs of this family run at once per worker process (images: IMAGE_CHECK_CONCURRENCY). */
  concurrency: number;
  retry: RetryPolicy;
  /** Finished jobs kept for inspection (count); failed ones for a month when `keepFailedDays` is set. */
  keepCompleted: number;
  keepFailed: number;
  keepFailedDays?: number;
}

export const QUEUE_FAMILIES = {
  email: {
    queue: 'email',
    concurrency: 5,
    retry: MAIL_RETRY,
    keepCompleted: 1_000,
    keepFailed: 10_000,
    keepFailedDays: 30,
  },
  'bulk-invite': {
    queue: 'bulk-invite',
    // E-mails in flight at once (pooled SMTP connections): a 10,000-row batch takes minutes, and in
    // its own queue it never delays a password reset.
    concurrency: 50,
    retry: MAIL_RETRY,
    keepCompleted: 20_000,
    keepFailed: 20_000,
    keepFailedDays: 30,
  },
  // The API waits for the answer while the request is open: one retry, soon.
  images: {
    queue: 'images',
    concurrency: 4,
    retry: { attempts: 2, baseMs: 1_000, capMs: 1_000 },
    keepCompleted: 1_000,
    keepFailed: 1_000,
  },
  // Scheduled every VIEW_FLUSH_INTERVAL_MS: the next run is the retry.
  views: {
    queue: 'views',
    concurrency: 1,
    retry: { attempts: 1, baseMs: 1_000, capMs: 1_000 },
    keepCompleted: 100,
    keepFailed: 100,
  },
  // Scheduled every BILLING_RECONCILE_INTERVAL_MS (and on demand for one tenant).
  billing: {
    queue: 'billing',
    concurrency: 1,
    retry: { attempts: 5, baseMs: 1_000, capMs: 60_000 },
    keepCompleted: 100,
    keepFailed: 1_000,
  },
} as const satisfies Record<string, QueueFamily>;

export type QueueFamilyName = keyof typeof QUEUE_FAMILIES;
export const QUEUE_FAMILY_NAMES = Object.keys(QUEUE_FAMILIES) as QueueFamilyName[];

/**
 * The school's look of an e-mail to one of its users (packages/server/src/mail/mail-brand.ts): its
 * name, its logo as an absolute http(s) URL of the portal's own stored image, and the button's colours.
 * Without it the e-mail has Helix's look (platform mail, and jobs queued before brands existed).
 */
export const MailBrand = z.object({
  name: z.string().min(1).max(200),
  logoUrl: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional(),
  primaryColor: z.string().regex(/^#[0-9a-fA-F]{6}$/),
  textColor: z.string().regex(/^#[0-9a-fA-F]{6}$/),
});
export type MailBrand = z.infer<typeof MailBrand>;

export const SendEmailPayload = z.object({
  /** Which template to render. */
  template: z.enum(['password-reset', 'invite', 'invite-elsewhere', 'welcome', 'invite-renewal']),
  to: z.email(),
  /** Template variables (names, links). */
  vars: z.record(z.string(), z.string()),
  /** The recipient's school's look; absent: Helix's. */
  brand: MailBrand.optional(),
});
export type SendEmailPayload = z.infer<typeof SendEmailPayload>;

/** What an uploaded image is for: decides its size and dimension limits and how it is re-encoded. */
const IMAGE_PURPOSES = ['thumbnail', 'logo', 'loading', 'background', 'profile', 'screenshot'] as const;
export type ImagePurpose = (typeof IMAGE_PURPOSES)[number];

/**
 * validate-image: the API stored an upload under a temporary key (`tmp/<id>`); the worker checks it by
 * content with sharp, writes the re-encoded image to `images/<purpose>-<id>.webp` and deletes the
 * upload. The API waits for the result (ValidateImageResult) while the request is open.
 */
const ValidateImagePayload = z.object({
  key: z.string().regex(/^tmp\/[A-Za-z0-9_-]{8,100}$/),
  purpose: z.enum(IMAGE_PURPOSES),
});
type ValidateImagePayload = z.infer<typeof ValidateImagePayload>;

export const ValidateImageResult = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    /** Storage key of the re-encoded image (`images/<name>`). */
    key: z.string(),
    contentType: z.string(),
    width: z.number().int(),
    height: z.number().int(),
  }),
  /**
   * The image was refused: `message` is the user-facing reason (MSG). `code` says why when it is not
   * the image's type, size or dimensions: over the check's budget, or storage failed (not the image).
   */
  z.object({
    ok: z.literal(false),
    message: z.string(),
    code: z.enum(['IMAGE_TOO_COMPLEX', 'STORAGE_UNAVAILABLE']).optional(),
  }),
]);
export type ValidateImageResult = z.infer<typeof ValidateImageResult>;

/**
 * flush-views: moves the view counts buffered in Redis to ModelViewDaily, exactly once. Repeated by a
 * job scheduler (VIEW_FLUSH_INTERVAL_MS); the worker also flushes on start and on shutdown.
 */
const FlushViewsPayload = z.object({
  reason: z.enum(['schedule', 'start', 'shutdown', 'manual']).default('schedule'),
});
type FlushViewsPayload = z.infer<typeof FlushViewsPayload>;

/**
 * send-invite: one invitation e-mail for an Invite row (single invite, resend). The link's token is
 * derived once per row (HMAC of a stored nonce), so every attempt mails the same working link; the
 * send is claimed with a lease before SMTP and the row marked sent after the server accepted it, so
 * after a crash at most the e-mails in flight can go out twice (packages/server/src/invites/send-invite.ts).
 */
const SendInvitePayload = z.object({ inviteId: z.number().int().positive() });
type SendInvitePayload = z.infer<typeof SendInvitePayload>;

/**
 * The bulk-invite family: `bulk-invite-dispatch` cuts the batch's invitations (in id order) into runs of
 * INVITE_ROWS_PER_JOB and adds one `bulk-invite-rows` job per run with a row still open (jobId
 * `invite-rows-<first id of the run>`, so a second dispatch adds nothing new); it sends them one after
 * another like send-invite (same token, lease, sent marker per row). A row it cannot finish (held by
 * another attempt, a failure a retry may change) becomes a `bulk-invite-row` job (jobId
 * `invite-<inviteId>`) with the e-mail retry policy. The worker marks the batch done when its last row
 * is sent or failed.
 */
const BulkInviteDispatchPayload = z.object({ batchId: z.number().int().positive() });
type BulkInviteDispatchPayload = z.infer<typeof BulkInviteDispatchPayload>;
/** Rows per bulk-invite-rows job: one job's queue overhead shared by this many e-mails. */
export const INVITE_ROWS_PER_JOB = 20;
const BulkInviteRowsPayload = z.object({
  batchId: z.number().int().positive(),
  inviteIds: z.array(z.number().int().positive()).min(1).max(INVITE_ROWS_PER_JOB),
});
type BulkInviteRowsPayload = z.infer<typeof BulkInviteRowsPayload>;
const BulkInviteRowPayload = z.object({
  batchId: z.number().int().positive(),
  inviteId: z.number().int().positive(),
});
type BulkInviteRowPayload = z.infer<typeof BulkInviteRowPayload>;

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
const ReconcileBillingPayload = z.object({
  reason: z.enum(['schedule', 'start', 'manual']).default('schedule'),
  tenantId: z.number().int().positive().optional(),
});
type ReconcileBillingPayload = z.infer<typeof ReconcileBillingPayload>;

/**
 * send-support-request: e-mails a stored SupportRequest to SUPPORT_EMAIL (tenant, plan and user
 * attached; `[Priority]` and the target in the subject for fast-track) and a confirmation copy to the
 * user. Queued after the row is stored (jobId support-<id>). Each e-mail has its own sent marker on the
 * row, checked before sending: a retry after one of the two went out sends only the other.
 */
const SendSupportRequestPayload = z.object({ requestId: z.number().int().positive() });
type SendSupportRequestPayload = z.infer<typeof SendSupportRequestPayload>;

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

/**
 * usage-alert: tells the tenant's owner that the period's views reached 80% or 100% of the allowance,
 * with the figures and a link to buy views. Queued by the first load that crosses the threshold (a
 * Redis SET NX gate, jobId usage-alert-<tenant>-<period>-<threshold>); the handler claims a UsageAlert
 * row (tenant, period start, threshold) before sending, so a period gets one e-mail per threshold.
 */
export const USAGE_ALERT_THRESHOLDS = [80, 100] as const;
export const UsageAlertPayload = z.object({
  tenantId: z.number().int().positive(),
  /** The billing period's start (ISO), as the view counter keyed it. */
  periodStart: z.iso.datetime(),
  periodEnd: z.iso.datetime(),
  threshold: z.union([z.literal(80), z.literal(100)]),
});
export type UsageAlertPayload = z.infer<typeof UsageAlertPayload>;

/**
 * password-reset-request: a forgot-password request, done off the request (issue 18, point 2): the API
 * queues one for every address it is asked about, so the answer and its timing are the same for a
 * known and an unknown address; the worker looks the address up and, for a live user, makes the
 * token and queues the send-email (packages/server/src/accounts/password-reset.command.ts).
 */
const PasswordResetRequestPayload = z.object({
  /** As ForgotPasswordRequest accepted it (lower-cased); looked up by the worker. */
  email: z.string().min(1),
  /** The white-label brand the request came from (the link's suffix). */
  brand: z.string().optional(),
});
type PasswordResetRequestPayload = z.infer<typeof PasswordResetRequestPayload>;

/** Every job: its name, payload contract and queue family. */
export const JOBS = {
  sendEmail: { name: 'send-email', family: 'email', payload: SendEmailPayload },
  sendInvite: { name: 'send-invite', family: 'email', payload: SendInvitePayload },
  billingEmail: { name: 'billing-email', family: 'email', payload: BillingEmailPayload },
  sendSupportRequest: { name: 'send-support-request', family: 'email', payload: SendSupportRequestPayload },
  bulkInviteDispatch: {
    name: 'bulk-invite-dispatch',
    family: 'bulk-invite',
    payload: BulkInviteDispatchPayload,
  },
  bulkInviteRows: { name: 'bulk-invite-rows', family: 'bulk-invite', payload: BulkInviteRowsPayload },
  bulkInviteRow: { name: 'bulk-invite-row', family: 'bulk-invite', payload: BulkInviteRowPayload },
  validateImage: { name: 'validate-image', family: 'images', payload: ValidateImagePayload },
  flushViews: { name: 'flush-views', family: 'views', payload: FlushViewsPayload },
  billingReceipt: { name: 'billing-receipt', family: 'email', payload: BillingReceiptPayload },
  billingActionRequired: {
    name: 'billing-action-required',
    family: 'email',
    payload: BillingActionRequiredPayload,
  },
  reconcileBilling: { name: 'reconcile-billing', family: 'billing', payload: ReconcileBillingPayload },
  usageAlert: { name: 'usage-alert', family: 'email', payload: UsageAlertPayload },
  passwordResetRequest: {
    name: 'password-reset-request',
    family: 'email',
    payload: PasswordResetRequestPayload,
  },
} as const satisfies Record<string, { name: string; family: QueueFamilyName; payload: z.ZodType }>;

export type JobDefinition = (typeof JOBS)[keyof typeof JOBS];
export type JobName = JobDefinition['name'];
export type JobPayload<N extends JobName> = z.output<Extract<JobDefinition, { name: N }>['payload']>;

/** The declaration of a job name, or undefined for a name no contract declares. */
export const jobNamed = (name: string): JobDefinition | undefined =>
  Object.values(JOBS).find((job) => job.name === name);
