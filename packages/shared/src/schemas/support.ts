import { z } from 'zod';
import { MSG } from '../messages.ts';
import { SUPPORT_STATUSES } from '../support.ts';
import { requiredText } from './text.ts';
import { listQuery, pageOf } from './list-query.ts';

/**
 * Fast-track support (issue 10). POST /support (tenant call, any signed-in user) as
 * multipart/form-data: subject, message and an optional screenshot (a file part `screenshot`, or a
 * data URL in the text field of that name). The Help form validates with the same schema.
 */
export const SUPPORT_LIMITS = {
  subject: 150,
  message: 5000,
  /** A 5 MB screenshot is ~6.7 MB of base64. */
  screenshotDataUrl: 7_000_000,
} as const;

// eslint-disable-next-line no-control-regex -- line breaks and tabs are allowed, other control characters not
const CONTROL_BUT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export const SupportRequestCreate = z.strictObject({
  subject: requiredText(MSG.supportSubjectRequired, SUPPORT_LIMITS.subject),
  message: z
    .string({ error: MSG.supportMessageRequired })
    .trim()
    .min(1, { error: MSG.supportMessageRequired })
    .max(SUPPORT_LIMITS.message, { error: MSG.tooLong(SUPPORT_LIMITS.message) })
    .refine((v) => !CONTROL_BUT_LINE_BREAKS.test(v), { error: MSG.invalidCharacters }),
  screenshot: z
    .string()
    .max(SUPPORT_LIMITS.screenshotDataUrl, { error: MSG.fileOver5mb })
    .nullable()
    .optional(),
});
export type SupportRequestCreate = z.input<typeof SupportRequestCreate>;
export type SupportRequestCreateInput = z.output<typeof SupportRequestCreate>;

export const SupportStatusSchema = z.enum(SUPPORT_STATUSES);

/** One request as the API presents it (the sender's own answer and the platform admin list). */
export const SupportRequestView = z.object({
  id: z.number().int(),
  subject: z.string(),
  message: z.string(),
  status: SupportStatusSchema,
  priority: z.boolean(),
  /** The response target promised when it was sent, in business hours, and in words. */
  target_hours: z.number().int(),
  target: z.string(),
  /** The tenant's plan when it was sent. */
  plan: z.string().nullable(),
  tenant: z.object({ id: z.number().int(), name: z.string(), domain_prefix: z.string() }),
  user: z.object({ id: z.number().int(), name: z.string(), email: z.string() }),
  has_screenshot: z.boolean(),
  /** Both e-mails (support address and confirmation) were accepted by the SMTP server. */
  mailed: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type SupportRequestView = z.infer<typeof SupportRequestView>;

/** What POST /support answers. */
export const SupportRequestCreated = z.object({ message: z.string(), request: SupportRequestView });
export type SupportRequestCreated = z.infer<typeof SupportRequestCreated>;

export const SUPPORT_SORTS = ['created_at', 'status', 'tenant', 'plan'] as const;

const flag = z.enum(['true', 'false']).transform((v) => v === 'true');

/**
 * GET /support (platform admins): filters, search (subject, sender's name or e-mail, school), sort and
 * order (docs/lists-at-scale.md). Priority requests always come first; within them, `sort` and `order`
 * (default: oldest first, so the request waiting longest is on top). With `page` or `pageSize` one
 * page (`SupportRequestPage`); without them the list as before (at most 1,000 requests).
 */
export const SupportListQuery = listQuery(SUPPORT_SORTS, { sort: 'created_at', order: 'asc' }).extend({
  /** One status or several, comma-separated (`open,answered`). */
  status: z
    .string()
    .transform((v) => v.split(','))
    .pipe(z.array(SupportStatusSchema).min(1))
    .optional(),
  priority: flag.optional(),
});
export type SupportListQuery = z.input<typeof SupportListQuery>;
export type SupportListQueryInput = z.output<typeof SupportListQuery>;

export const SupportRequestList = z.array(SupportRequestView);
export const SupportRequestPage = pageOf(SupportRequestView);
export type SupportRequestPage = z.infer<typeof SupportRequestPage>;

/** `:id` of the /support/:id calls (the tenant path parameter is beside it). */
export const SupportIdParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .refine((n) => n >= 1 && n <= 2_147_483_647),
});

/** POST /support/:id/status (platform admins). */
export const SupportStatusUpdate = z.strictObject({ status: SupportStatusSchema });
export type SupportStatusUpdate = z.infer<typeof SupportStatusUpdate>;
