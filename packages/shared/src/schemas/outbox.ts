import { z } from 'zod';
import { ERROR_CODES } from '../error-codes.ts';

/**
 * The offline outbox's contract (ARCHITECTURE.md §10, issue 8): the rule that tells "retry later"
 * from "refused" by the error codes (error-codes.ts), the headers of an outbox call, and the shape of
 * a queued edit. The API answers errors as `{ statusCode, error, code, message, errors? }`.
 */

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Set on an answer read back from the idempotency store instead of acting again. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** A client-made key: a UUID in practice; 8 to 200 of these characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9._:-]{8,200}$/;
/** How long the server keeps a key's answer; a queued edit older than this may act again. */
export const IDEMPOTENCY_KEY_TTL_DAYS = 30;

/** What a failed call looks like to the client: no status for a network failure. */
export interface CallFailure {
  status?: number;
  code?: string;
}

export type FailureKind = 'retry' | 'conflict' | 'refused';

/**
 * The client rule. Retry later: a network failure, any 5xx, 429, 408 and a key whose first request is
 * still running. A conflict: 409 VERSION_CONFLICT (the record changed meanwhile). Refused: any other
 * 4xx (validation, permission lost, name taken...). Nothing reads the message text.
 */
export function failureKind({ status, code }: CallFailure): FailureKind {
  if (status === undefined || status === 0) return 'retry';
  if (status >= 500 || status === 429 || status === 408) return 'retry';
  if (code === ERROR_CODES.idempotencyInProgress) return 'retry';
  if (status === 409 && code === ERROR_CODES.versionConflict) return 'conflict';
  return 'refused';
}

export const isRetryable = (failure: CallFailure): boolean => failureKind(failure) === 'retry';

/** The version a conflict's `current` record carries (`version`, or `rolesVersion` for assignments). */
export function currentVersionOf(
  current: unknown,
  field: 'version' | 'rolesVersion' = 'version',
): number | null {
  if (typeof current !== 'object' || current === null) return null;
  const value = (current as Record<string, unknown>)[field];
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

/** The edits that may be queued offline (issue 8 §2). */
const OUTBOX_KINDS = [
  'model.update',
  'role.create',
  'role.update',
  'role.delete',
  'user.assignRoles',
  'user.invite',
  'branding.update',
  'profile.update',
] as const;
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

const OUTBOX_STATES = ['pending', 'syncing', 'refused', 'conflict'] as const;

/** A queued edit as the web stores it (apps/web/src/offline/offline-db.ts `OutboxRow`). */
export const OutboxEntry = z.object({
  seq: z.number().int().optional(),
  key: z.string().regex(IDEMPOTENCY_KEY_PATTERN),
  userId: z.number().int(),
  tenant: z.string(),
  kind: z.enum(OUTBOX_KINDS),
  /** The record it changes ('role:12', 'user:4', 'model:7', 'branding', 'profile', 'invite:a@b.c'). */
  target: z.string(),
  label: z.string(),
  method: z.enum(['POST', 'PUT', 'PATCH', 'DELETE']),
  /** The tenant call's path after /api/t/:tenant, e.g. '/role/create'. */
  path: z.string().startsWith('/'),
  body: z.unknown(),
  /** The version the edit was based on, sent as If-Match; null for creations and invites. */
  baseVersion: z.number().int().nullable(),
  /** Which field of a conflict's `current` holds the version to retry on. */
  versionField: z.enum(['version', 'rolesVersion']).optional(),
  state: z.enum(OUTBOX_STATES),
  attempts: z.number().int(),
  nextAttemptAt: z.number(),
  createdAt: z.number(),
  errorCode: z.string().optional(),
  errorMessage: z.string().optional(),
  current: z.unknown().optional(),
});
export type OutboxEntry = z.infer<typeof OutboxEntry>;
