import { isApiErrorBody, MSG } from '@helix/shared';

/**
 * The rejected value of every API call: the server's `{ statusCode, error, message, errors? }`, or a
 * stand-in for failures that never reached the server (statusCode 0).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly statusCode: number;
  readonly error: string;
  /** Field errors; a string (or anything else) from the server is ignored, per the specification. */
  readonly errors?: Record<string, string>;

  constructor(statusCode: number, error: string, message: string, errors?: Record<string, string>) {
    super(message);
    this.statusCode = statusCode;
    this.error = error;
    if (errors) this.errors = errors;
  }

  static fromResponse(status: number, statusText: string, body: unknown): ApiError {
    if (isApiErrorBody(body)) {
      const errors = isFieldErrors(body.errors) ? body.errors : undefined;
      return new ApiError(body.statusCode, body.error, body.message || MSG.defaultError, errors);
    }
    return new ApiError(status, statusText || 'Error', MSG.defaultError);
  }

  static network(timedOut: boolean): ApiError {
    return new ApiError(0, timedOut ? 'Timeout' : 'Network Error', MSG.defaultError);
  }
}

export const isFieldErrors = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((v) => typeof v === 'string');
