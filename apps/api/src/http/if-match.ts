import type { Request } from 'express';
import { MSG } from '@helix/shared';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { AppError } from '@helix/server';

/**
 * The version an edit was based on, from `If-Match: 3` (also `"3"` and `W/"3"`); undefined without the
 * header (the call then behaves as it always did). The command compares it with the record's version
 * and answers 409 VERSION_CONFLICT with the current record when they differ.
 */
export function ifMatch(req: Request): number | undefined {
  const raw = req.get('If-Match');
  if (raw === undefined || raw.trim() === '') return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(raw);
  if (!match) throw new AppError(ERROR_CODES.ifMatchInvalid, { status: 400, message: MSG.ifMatchInvalid });
  return Number(match[1]);
}
