import { STATUS_CODES } from 'node:http';
import { MSG } from '@helix/shared';
import { ERROR_CODES, type ErrorCode } from '@helix/shared/error-codes';

/**
 * The one error type. The API's error handler answers `{ statusCode, error, code, message }`, plus
 * `errors: { field: message }` for field errors and `current` for a version conflict. The code is
 * the client's contract, one of ERROR_CODES (packages/shared/src/error-codes.ts); the message is for
 * people.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors?: Record<string, string>;
  /** The `error` field of the answer when it is not the HTTP reason (the spec's 'Invalid token'). */
  readonly error?: string;
  /** A version conflict's current record, as its GET presenter shows it. */
  readonly current?: unknown;
  /** Seconds the client should wait before retrying (the answer's Retry-After header; 503 and 429). */
  readonly retryAfter?: number;

  constructor(
    code: ErrorCode,
    opts: {
      status: number;
      message: string;
      errors?: Record<string, string>;
      error?: string;
      current?: unknown;
      retryAfter?: number;
      cause?: unknown;
    },
  ) {
    super(opts.message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.code = code;
    this.status = opts.status;
    this.errors = opts.errors;
    this.error = opts.error;
    this.current = opts.current;
    this.retryAfter = opts.retryAfter;
  }

  /** The record changed since the version the edit was based on (If-Match): 409 with the record now. */
  static versionConflict(current: unknown, message: string = MSG.versionConflict) {
    return new AppError(ERROR_CODES.versionConflict, { status: 409, message, current });
  }

  static badRequest(message: string, errors?: Record<string, string>) {
    return new AppError(ERROR_CODES.badRequest, { status: 400, message, errors });
  }
  static field(field: string, message: string, status = 422) {
    return new AppError(ERROR_CODES.fieldInvalid, { status, message, errors: { [field]: message } });
  }
  static unauthorized(message: string = MSG.sessionExpired) {
    return new AppError(ERROR_CODES.unauthorized, { status: 401, message });
  }
  /** The session was ended by a newer login of the same user: the web shows the multiple-login popup. */
  static invalidToken() {
    return new AppError(ERROR_CODES.invalidToken, {
      status: 401,
      message: MSG.invalidToken,
      error: MSG.invalidToken,
    });
  }
  static tooManyRequests(message: string = MSG.tooManyRequests) {
    return new AppError(ERROR_CODES.tooManyRequests, { status: 429, message });
  }
  static forbidden(message: string = MSG.unauthorizedAccess) {
    return new AppError(ERROR_CODES.forbidden, { status: 403, message });
  }
  static notFound(message: string = MSG.notFound) {
    return new AppError(ERROR_CODES.notFound, { status: 404, message });
  }
  /** A dependency is down (REDIS_UNAVAILABLE, DATABASE_UNAVAILABLE): 503, retry after a few seconds. */
  static unavailable(
    code: typeof ERROR_CODES.redisUnavailable | typeof ERROR_CODES.databaseUnavailable,
    retryAfter = 5,
  ) {
    return new AppError(code, { status: 503, message: MSG.serviceUnavailable, retryAfter });
  }
  static conflict(message: string, errors?: Record<string, string>) {
    return new AppError(ERROR_CODES.conflict, { status: 409, message, errors });
  }
}

/** The `error` field: the HTTP reason, except for an ended session where the spec wants 'Invalid token'. */
export const reasonFor = (status: number): string =>
  ({
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    409: 'Conflict',
    413: 'Payload Too Large',
    415: 'Unsupported Media Type',
    422: 'Unprocessable Entity',
    429: 'Too Many Requests',
    501: 'Not Implemented',
    503: 'Service Unavailable',
  })[status] ??
  (status >= 400 && status < 500 ? (STATUS_CODES[status] ?? 'Bad Request') : 'Internal Server Error');
