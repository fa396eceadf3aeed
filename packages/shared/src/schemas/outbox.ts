import { z } from 'zod';

/**
 * The offline outbox's contract (ARCHITECTURE.md §10, issue 8): the error codes a client reads, the
 * rule that tells "retry later" from "refused", the headers of an outbox call, and the shape of a
 * queued edit. The API answers errors as `{ statusCode, error, code, message, errors? }`.
 */

/** Stable machine codes of error answers (AppError codes and the error handler's own). */
export const ERROR_CODES = {
  badRequest: 'BAD_REQUEST',
  fieldInvalid: 'FIELD_INVALID',
  validationFailed: 'VALIDATION_FAILED',
  invalidJson: 'INVALID_JSON',
  bodyTooLarge: 'BODY_TOO_LARGE',
  bodyTooDeep: 'BODY_TOO_DEEP',
  unauthorized: 'UNAUTHORIZED',
  invalidToken: 'INVALID_TOKEN',
  forbidden: 'FORBIDDEN',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  tooManyRequests: 'TOO_MANY_REQUESTS',
  usersLimitExceeds: 'USERS_LIMIT_EXCEEDS',
  versionConflict: 'VERSION_CONFLICT',
  idempotencyKeyReused: 'IDEMPOTENCY_KEY_REUSED',
  idempotencyInProgress: 'IDEMPOTENCY_IN_PROGRESS',
  idempotencyKeyInvalid: 'IDEMPOTENCY_KEY_INVALID',
  ifMatchInvalid: 'IF_MATCH_INVALID',
  /** An X-Queued-At header that is not an ISO time or lies in the future (audit log). */
  queuedAtInvalid: 'QUEUED_AT_INVALID',
  /** Login: the e-mail and password do not match an account (401). */
  invalidCredentials: 'INVALID_CREDENTIALS',
  /** A built-in role cannot be changed or deleted (403). */
  roleBuiltIn: 'ROLE_BUILT_IN',
  /** Bulk invite: rows the server's check refused (422, `errors` per row). */
  bulkRowsInvalid: 'BULK_ROWS_INVALID',
  /** Bulk invite: addresses that are this tenant's users already (409, `errors` per address). */
  bulkExistingUsers: 'BULK_EXISTING_USERS',
  /** An uploaded file over its limit (413). */
  uploadTooLarge: 'UPLOAD_TOO_LARGE',
  /** A multipart body with more fields than the upload takes (413). */
  uploadTooManyFields: 'UPLOAD_TOO_MANY_FIELDS',
  /** An image over the check's time or pixel budget (4xx: resending the same image will not help). */
  imageTooComplex: 'IMAGE_TOO_COMPLEX',
  /** The image check did not answer in time (503, retry later). */
  imageCheckUnavailable: 'IMAGE_CHECK_UNAVAILABLE',
  /** Another image of the same tenant held the tenant's check slot too long (429, retry later). */
  imageCheckBusy: 'IMAGE_CHECK_BUSY',
  /** Object storage refused a write or read (permissions, full, read-only, I/O): 503, retry later. */
  storageUnavailable: 'STORAGE_UNAVAILABLE',
  internal: 'INTERNAL',
  /** A transient database conflict (deadlock, serialization failure) outlasted the retries: try later. */
  databaseBusy: 'DATABASE_BUSY',
  /** The database could not be reached (or the connection was lost): try later. */
  databaseUnavailable: 'DATABASE_UNAVAILABLE',
  /** The job queue (Redis) did not take the job in time: nothing was queued, try again. */
  queueUnavailable: 'QUEUE_UNAVAILABLE',
  /** 503 with Retry-After: Redis is down and the request cannot be answered without it. */
  redisUnavailable: 'REDIS_UNAVAILABLE',
  /** A share or embed link limited to other sites was loaded elsewhere (403): nothing was counted. */
  embedHostNotAllowed: 'EMBED_HOST_NOT_ALLOWED',
  /** oEmbed asked for a format other than json (501, as the oEmbed spec says). */
  formatNotImplemented: 'FORMAT_NOT_IMPLEMENTED',
  // billing (apps/api/BILLING-API.md)
  billingOwnerOnly: 'BILLING_OWNER_ONLY',
  trialAlreadyUsed: 'TRIAL_ALREADY_USED',
  cardError: 'CARD_ERROR',
  noSubscription: 'NO_SUBSCRIPTION',
  planChangePending: 'PLAN_CHANGE_PENDING',
  seatsFixed: 'SEATS_FIXED',
  paymentNotStarted: 'PAYMENT_NOT_STARTED',
  nothingToPay: 'NOTHING_TO_PAY',
  paymentProvider: 'PAYMENT_PROVIDER',
  billingUnavailable: 'BILLING_UNAVAILABLE',
  /** A tenant's plan id that names no plan. */
  planNotFound: 'PLAN_NOT_FOUND',
  /** A platform admin's grant of a subscription that Stripe or the database refused. */
  grantFailed: 'GRANT_FAILED',
  // LTI 1.3 (docs/lti.md)
  ltiPlatformTaken: 'LTI_PLATFORM_TAKEN',
  ltiLoginInvalid: 'LTI_LOGIN_INVALID',
  ltiLaunchInvalid: 'LTI_LAUNCH_INVALID',
  ltiUnknownPlatform: 'LTI_UNKNOWN_PLATFORM',
  ltiUnknownDeployment: 'LTI_UNKNOWN_DEPLOYMENT',
  ltiStateInvalid: 'LTI_STATE_INVALID',
  ltiTokenInvalid: 'LTI_TOKEN_INVALID',
  ltiTokenExpired: 'LTI_TOKEN_EXPIRED',
  ltiWrongAudience: 'LTI_WRONG_AUDIENCE',
  ltiNonceInvalid: 'LTI_NONCE_INVALID',
  ltiKeysUnavailable: 'LTI_KEYS_UNAVAILABLE',
  ltiMessageUnsupported: 'LTI_MESSAGE_UNSUPPORTED',
  ltiNoModel: 'LTI_NO_MODEL',
  ltiDeepLinkExpired: 'LTI_DEEP_LINK_EXPIRED',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

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

/** 409 VERSION_CONFLICT: the record as its GET presenter shows it, with its current `version`. */
export const VersionConflictBody = z.object({
  statusCode: z.literal(409),
  error: z.string(),
  code: z.literal(ERROR_CODES.versionConflict),
  message: z.string(),
  current: z.unknown(),
});
export type VersionConflictBody = z.infer<typeof VersionConflictBody>;

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
export const OUTBOX_KINDS = [
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

export const OUTBOX_STATES = ['pending', 'syncing', 'refused', 'conflict'] as const;

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
