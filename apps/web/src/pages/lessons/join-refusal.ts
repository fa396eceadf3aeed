import { MSG } from '@helix/shared';
import { ApiError } from '../../api/api-error';

/** The catalogue's words for a refused join, when the server's answer carries none of its own. */
const REFUSALS: Record<number, string> = {
  404: MSG.lessonNotFound,
  409: MSG.lessonFull,
  429: MSG.lessonJoinThrottled,
};

/** What the join page says about a failed join (null: its field errors are shown under the fields). */
export function refusalText(error: unknown): string | null {
  if (!(error instanceof ApiError)) return MSG.defaultError;
  if (error.shownInForm) return null;
  const fallback = REFUSALS[error.statusCode];
  return fallback && error.message === MSG.defaultError ? fallback : error.message;
}
