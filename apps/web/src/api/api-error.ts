import { isApiErrorBody, MSG } from '@helix/shared';

/**
 * The rejected value of every API call: the server's `{ statusCode, error, code, message, errors? }`,
 * or a stand-in for failures that never reached the server (statusCode 0, code 'NETWORK').
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly statusCode: number;
  readonly error: string;
  /** Field errors; a string (or anything else) from the server is ignored, per the specification. */
  readonly errors?: Record<string, string>;
  /** The server's stable code (packages/shared/src/schemas/outbox.ts); 'NETWORK' when it was not reached. */
  code = '';
  /** A 409 VERSION_CONFLICT's record as it is now. */
  current?: unknown;
  /**
   * Every field error has been shown under its field by the form that sent the call
   * (forms/server-errors.ts): the message needs no toast as well (see client.ts).
   */
  shownInForm = false;

  constructor(statusCode: number, error: string, message: string, errors?: Record<string, string>) {
    super(message);
    this.statusCode = statusCode;
    this.error = error;
    if (errors) this.errors = errors;
  }

  static fromResponse(status: number, statusText: string, body: unknown): ApiError {
    if (isApiErrorBody(body)) {
      const errors = isFieldErrors(body.errors) ? body.errors : undefined;
      const failure = new ApiError(body.statusCode, body.error, body.message || MSG.defaultError, errors);
      if (typeof body.code === 'string') failure.code = body.code;
      if (body.current !== undefined) failure.current = body.current;
      return failure;
    }
    return new ApiError(status, statusText || 'Error', MSG.defaultError);
  }

  static network(timedOut: boolean): ApiError {
    const failure = new ApiError(0, timedOut ? 'Timeout' : 'Network Error', MSG.defaultError);
    failure.code = 'NETWORK';
    return failure;
  }
}

export const isFieldErrors = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((v) => typeof v === 'string');
