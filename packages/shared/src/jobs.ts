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
export const IMAGE_PURPOSES = ['thumbnail', 'logo', 'loading', 'background'] as const;
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

export const JOBS = {
  sendEmail: { name: 'send-email', payload: SendEmailPayload },
  validateImage: { name: 'validate-image', payload: ValidateImagePayload },
  flushViews: { name: 'flush-views', payload: FlushViewsPayload },
} as const;

export type JobName = (typeof JOBS)[keyof typeof JOBS]['name'];
