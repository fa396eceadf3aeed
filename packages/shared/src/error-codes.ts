/**
 * The error codes: the stable, machine-readable `code` of every error answer
 * (`{ statusCode, error, code, message, errors? }`, api-error.ts). The server's AppError takes only
 * these; clients branch on them (the outbox's retry rule, schemas/outbox.ts), never on the message.
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
