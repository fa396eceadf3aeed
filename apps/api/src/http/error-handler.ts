import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { ZodError } from 'zod';
import { MSG, type ApiErrorBody } from '@helix/shared';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { AppError, reasonFor } from '@helix/server';
import { databaseError } from '@helix/server/db/transaction';
import type { DependencyOutage } from '@helix/server/health/dependency-outage';
import { unavailableError } from '@helix/server/health/unavailable';

/** Set by createApp: the outage state of the app's Redis and PostgreSQL, logged once per outage. */
export interface AppOutages {
  redis: DependencyOutage;
  database: DependencyOutage;
}

/** The code of an answer the handler makes itself (not an AppError), by status. */
const codeFor = (status: number): string =>
  ({
    400: ERROR_CODES.badRequest,
    401: ERROR_CODES.unauthorized,
    403: ERROR_CODES.forbidden,
    404: ERROR_CODES.notFound,
    409: ERROR_CODES.conflict,
    413: ERROR_CODES.bodyTooLarge,
    429: ERROR_CODES.tooManyRequests,
  })[status] ?? (status >= 500 ? ERROR_CODES.internal : ERROR_CODES.badRequest);

const body = (
  statusCode: number,
  message: string,
  errors?: Record<string, string>,
  error?: string,
  code: string = codeFor(statusCode),
): ApiErrorBody => ({
  statusCode,
  error: error ?? reasonFor(statusCode),
  code,
  message,
  ...(errors && Object.keys(errors).length > 0 ? { errors } : {}),
});

/** Field errors keyed by the field's path (first message per field); unknown fields get their own. */
function fieldErrors(error: ZodError): { message: string; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  let message: string | undefined;
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) errors[[...issue.path, key].join('.')] ??= MSG.unknownField;
      message ??= MSG.unknownField;
      continue;
    }
    const key = issue.path.map(String).join('.');
    if (key) errors[key] ??= issue.message;
    message ??= key ? issue.message : MSG.validationFailed;
  }
  return { message: message ?? MSG.validationFailed, errors };
}

interface HttpishError {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
}

/** Errors of express.json (body-parser): malformed JSON, too large, bad charset or encoding. */
function bodyParserError(err: unknown): ApiErrorBody | null {
  if (typeof err !== 'object' || err === null) return null;
  const e = err as HttpishError;
  switch (e.type) {
    case 'entity.parse.failed':
      return body(400, MSG.invalidJson, undefined, undefined, ERROR_CODES.invalidJson);
    case 'entity.too.large':
      return body(413, MSG.bodyTooLarge);
    case 'entity.too.deep':
      return body(400, MSG.bodyTooDeep, undefined, undefined, ERROR_CODES.bodyTooDeep);
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return body(415, MSG.invalidJson, undefined, undefined, ERROR_CODES.invalidJson);
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
    case 'stream.not.readable':
      return body(400, MSG.defaultError);
    default:
      return null;
  }
}

/**
 * Other errors that carry a 4xx status (http-errors style, with or without `expose`), e.g. the
 * router's URIError for a malformed percent-encoding in the path, which says `status: 400` but not
 * `expose`. A URIError without a status is a 400 too. Never a 500: the client sent something wrong.
 */
function clientError(err: unknown): ApiErrorBody | null {
  if (typeof err !== 'object' || err === null) return null;
  const e = err as HttpishError;
  const status = e.status ?? e.statusCode;
  if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500)
    return body(status, status === 404 ? MSG.notFound : MSG.defaultError);
  if (err instanceof URIError) return body(400, MSG.defaultError);
  return null;
}

/**
 * The answer an error becomes (logging it, reporting an outage, setting Retry-After): shared by the
 * JSON error handler and the pages drawn for learning platforms (routes/lti.routes.ts).
 */
export function errorAnswer(err: unknown, req: Request, res: Response): ApiErrorBody {
  let answer: ApiErrorBody;
  // A dependency down (Redis, PostgreSQL) or a database conflict that outlasted withTransaction's
  // retries: a fast 503 with Retry-After, never a logged 500 per request. An outage is reported to the
  // dependency's watcher (one log line when it starts and one when it ends).
  const known = err instanceof AppError ? err : (unavailableError(err) ?? databaseError(err));
  if (
    known &&
    (known.code === ERROR_CODES.redisUnavailable || known.code === ERROR_CODES.databaseUnavailable)
  ) {
    const outages = req.app.locals.outages as AppOutages | undefined;
    outages?.[known.code === ERROR_CODES.redisUnavailable ? 'redis' : 'database'].failed(known.cause ?? err);
  }
  if (known) {
    answer = body(known.status, known.message, known.errors, known.error, known.code);
    if (known.current !== undefined) answer.current = known.current;
    if (known.retryAfter !== undefined) res.set('Retry-After', String(known.retryAfter));
  } else if (err instanceof ZodError) {
    const { message, errors } = fieldErrors(err);
    answer = body(400, message, errors, undefined, ERROR_CODES.validationFailed);
  } else {
    answer = bodyParserError(err) ?? clientError(err) ?? body(500, MSG.defaultError);
  }
  // A 503 is "try later" (an outage, logged by its watcher; a conflict that outlasted its retries), a
  // 501 a refusal the protocol asks for (oEmbed's unserved format); anything else past 499 is a
  // defect worth its own line.
  if (answer.statusCode >= 500 && answer.statusCode !== 503 && answer.statusCode !== 501) {
    req.log?.error({ err }, 'unhandled error');
  } else if (known?.code === ERROR_CODES.databaseBusy) {
    req.log?.warn({ err: known.cause ?? err }, 'database busy after retries');
  }
  return answer;
}

/**
 * The one place errors become answers: `{ statusCode, error, code, message, errors?, current? }`. Anything unexpected
 * is logged and answers 500 with the default message, never internals.
 */
export const errorHandler: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) {
    next(err);
    return;
  }
  const answer = errorAnswer(err, req, res);
  res.status(answer.statusCode).json(answer);
};

/** Unknown /api paths answer JSON, never the web app. */
export const apiNotFound: RequestHandler = () => {
  throw AppError.notFound();
};
