import type { RequestHandler } from 'express';
import { MSG } from '@helix/shared';
import { AppError } from '@helix/server/errors';

/**
 * Text no route can store or search: a NUL character (PostgreSQL refuses it in text, SQLSTATE 22021)
 * or a lone UTF-16 surrogate (not encodable as UTF-8, so the database driver refuses it too). Found
 * anywhere in the request's input it is a 400 with a field error, before any route, query or audit
 * write sees it, instead of a 500 from the database.
 */
/** A UTF-16 surrogate without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorableText = (value: string): boolean =>
  !value.includes('\u0000') && !LONE_SURROGATE.test(value);

/** Nesting walked at most (JSON bodies are refused past 64 levels by the body parser already). */
const MAX_DEPTH = 80;

/**
 * The path (`name`, `users.3.email`) of the first string in `value`, key or value, that is not
 * storable text, or undefined.
 */
export function unstorableAt(value: unknown, path = '', depth = 0): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path || 'value';
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (!isStorableText(key)) return at;
    const found = unstorableAt(inner, at, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The 400 for unstorable text at `field` (the field error names it, as a zod refusal would). */
export const unstorableText = (field: string) =>
  AppError.badRequest(MSG.invalidCharacters, { [field]: MSG.invalidCharacters });

/**
 * Every /api request's path, as decoded (`/api/lti/jwks/%00`), checked once before any route: a path
 * parameter is not always validated by a schema. Queries and bodies are checked by `validate`, inside
 * each route, so a route that answers with its own pages (LTI, the unsubscribe link) keeps them.
 */
export const refuseUnstorablePath: RequestHandler = (req, _res, next) => {
  let path: string;
  try {
    path = decodeURIComponent(req.path);
  } catch {
    // A malformed escape: the router's own decoding answers it (400).
    next();
    return;
  }
  next(isStorableText(path) ? undefined : unstorableText('path'));
};
