import { z } from 'zod';
import { MSG } from '../messages.ts';
import { email, LIMITS } from './account.ts';
import { optionalText, requiredText } from './text.ts';
import { MAX_ID } from './ids.ts';

/**
 * Invitations (administration-content 2, 5, 7): single invite, resend, bulk invite. The API validates
 * with these and the web forms and the bulk-invite preview use the same rules.
 */
export const INVITE_LIMITS = {
  name: LIMITS.name,
  email: LIMITS.email,
  note: 500,
  /** Rows of one bulk invite (the route alone accepts a body this large). */
  rows: 10_000,
  /** The uploaded file, read in the browser. */
  fileMb: 5,
} as const;

export const EntityId = z.number().int().min(1).max(MAX_ID);

/** POST /user/invite */
export const InviteRequest = z.strictObject({
  name: requiredText(MSG.inviteNameRequired, INVITE_LIMITS.name),
  email: email(MSG.inviteEmailRequired),
});
export type InviteRequest = z.input<typeof InviteRequest>;

/** POST /user/resend-invite: the spec's payload is id, name, email, subject; only id decides. */
export const ResendInviteRequest = z.strictObject({
  id: EntityId,
  name: optionalText(INVITE_LIMITS.name),
  email: z.string().max(INVITE_LIMITS.email).optional(),
  subject: optionalText(200),
});
export type ResendInviteRequest = z.input<typeof ResendInviteRequest>;

export const MessageAnswer = z.object({ message: z.string() });

/** One row as it comes from a file: every cell is text (a formula is text too: never evaluated). */
export const BulkInviteRow = z.strictObject({
  name: z.string().max(10_000).default(''),
  email: z.string().max(10_000).default(''),
  note: z.string().max(10_000).optional(),
});
export type BulkInviteRow = z.input<typeof BulkInviteRow>;

/** POST /user/bulk-invite: the rows as read; the server checks each of them again. */
export const BulkInviteRequest = z.strictObject({
  users: z
    .array(BulkInviteRow)
    .min(1, { error: MSG.bulkNoRows })
    .max(INVITE_LIMITS.rows, { error: MSG.bulkTooManyRows(INVITE_LIMITS.rows) }),
});
export type BulkInviteRequest = z.input<typeof BulkInviteRequest>;

export const BulkInviteStarted = z.object({
  message: z.string(),
  batchId: z.number().int(),
  total: z.number().int(),
  /** Rows dropped as duplicates of an earlier row of the same file. */
  duplicates: z.number().int(),
});
export type BulkInviteStarted = z.infer<typeof BulkInviteStarted>;

export const BulkInviteBatchView = z.object({
  id: z.number().int(),
  status: z.enum(['pending', 'processing', 'done', 'failed']),
  total: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  failures: z.array(z.object({ name: z.string(), email: z.string(), reason: z.string() })),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type BulkInviteBatchView = z.infer<typeof BulkInviteBatchView>;

/** GET /user/bulk-invite/:id (the path also holds :tenant, checked before). */
export const BatchIdParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .pipe(EntityId),
});

/**
 * What is wrong with one row of a bulk invite, checked the same way in the browser and on the server.
 * `refused` is the server's word on a row the browser found valid (its text comes from the server).
 */
export type RowProblem = 'missingName' | 'invalidEmail' | 'duplicate' | 'existing' | 'tooLong' | 'refused';

export const ROW_PROBLEM_TEXT: Record<Exclude<RowProblem, 'tooLong' | 'refused'>, string> = {
  missingName: MSG.bulkRowMissingName,
  invalidEmail: MSG.bulkRowInvalidEmail,
  duplicate: MSG.bulkRowDuplicate,
  existing: MSG.bulkRowExisting,
};

export interface CheckedRow {
  /** Position in the file (0-based, header excluded). */
  index: number;
  name: string;
  /** Trimmed and lower-cased when valid; as given otherwise. */
  email: string;
  note: string;
  problems: RowProblem[];
  /** The problems in words, for the preview table and its export. */
  problemText: string[];
}

const EmailCheck = z.email();
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Checks the rows of a bulk invite: missing name, invalid e-mail, duplicate of an earlier row (the
 * first stays), an address that is already a user (`existing`, lower-case), over-long cells. The
 * browser shows the result before anything is sent; the server runs it again on what it received.
 */
export function checkInviteRows(
  rows: ReadonlyArray<{ name?: string; email?: string; note?: string }>,
  existing: ReadonlySet<string> = new Set(),
): CheckedRow[] {
  const seen = new Set<string>();
  return rows.map((row, index) => {
    const name = (row.name ?? '').trim();
    const rawEmail = (row.email ?? '').trim();
    const note = (row.note ?? '').trim();
    const problems: RowProblem[] = [];
    const problemText: string[] = [];
    const add = (problem: RowProblem, text: string) => {
      problems.push(problem);
      problemText.push(text);
    };
    if (!name || CONTROL.test(name)) add('missingName', ROW_PROBLEM_TEXT.missingName);
    if (name.length > INVITE_LIMITS.name) add('tooLong', MSG.bulkRowTooLong('Name', INVITE_LIMITS.name));
    if (note.length > INVITE_LIMITS.note) add('tooLong', MSG.bulkRowTooLong('Note', INVITE_LIMITS.note));
    const lower = rawEmail.toLowerCase();
    const validEmail = rawEmail.length <= INVITE_LIMITS.email && EmailCheck.safeParse(rawEmail).success;
    if (!validEmail) add('invalidEmail', ROW_PROBLEM_TEXT.invalidEmail);
    else if (seen.has(lower)) add('duplicate', ROW_PROBLEM_TEXT.duplicate);
    else if (existing.has(lower)) add('existing', ROW_PROBLEM_TEXT.existing);
    if (validEmail) seen.add(lower);
    return { index, name, email: validEmail ? lower : rawEmail, note, problems, problemText };
  });
}

/** Rows that block the upload: everything but duplicates, which are simply dropped. */
export const blockingRows = (rows: CheckedRow[]) =>
  rows.filter((r) => r.problems.some((p) => p !== 'duplicate'));

/** The rows to send: valid, first occurrence of each address. */
export const rowsToSend = (rows: CheckedRow[]) => rows.filter((r) => r.problems.length === 0);
