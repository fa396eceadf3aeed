import type { Request, RequestHandler } from 'express';
import { z } from 'zod';
import { unstorableAt, unstorableText } from './unsafe-text.ts';

/** For GET routes: no query parameters at all. */
export const NoQuery = z.strictObject({});

/**
 * Parses one part of the request with its zod schema (unknown fields are refused by the strict
 * schemas) and puts the result on req.input; a failure goes to the error handler as a 400 with field
 * errors. A missing body counts as {} so every required field reports its own message.
 */
export function validate(schema: z.ZodType, source: 'body' | 'query' | 'params' = 'body'): RequestHandler {
  return (req, _res, next) => {
    const raw = source === 'body' ? (req.body ?? {}) : source === 'query' ? req.query : req.params;
    // NUL or a lone surrogate anywhere (a multipart form's fields too): a 400, never a database error.
    const unstorable = unstorableAt(raw);
    if (unstorable !== undefined) {
      next(unstorableText(unstorable));
      return;
    }
    const result = schema.safeParse(raw);
    if (!result.success) {
      next(result.error);
      return;
    }
    req.input = result.data;
    next();
  };
}

/** The validated input, typed by the schema that validated it. */
export const inputOf = <S extends z.ZodType>(req: Request, _schema: S): z.output<S> =>
  req.input as z.output<S>;
