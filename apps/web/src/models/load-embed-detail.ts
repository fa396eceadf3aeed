import type { EmbedDetail } from '@helix/shared/schemas/model';
import { ERROR_CODES } from '@helix/shared/schemas/outbox';
import { ApiError } from '../api/api-error';
import { logError } from '../logging/error-logger';
import { fetchEmbedDetail } from './embed-detail.api';
import { isPlausibleToken, safeFrameUrl } from './share-links';
import { keepViewerToken } from './viewer-token-store';

export type EmbedDetailState =
  | { status: 'loading' }
  | { status: 'ready'; detail: EmbedDetail; frameUrl: string }
  | { status: 'unavailable' }
  /** The link is limited to other sites than the one showing it (nothing was counted). */
  | { status: 'not-allowed' };

export type PublicPage = 'share' | 'embed';

/**
 * The public share and embed pages' one call: POST /api/model/embed/detail for the token, and the
 * viewer frame's address from its answer (with the viewer token the server minted for this load,
 * which the page keeps for the link's next load). Every failure (a malformed, unknown or revoked token, a
 * deleted model, a network error, a strange answer) ends in 'unavailable', never a throw; a link limited
 * to other sites than the one showing the page ends in 'not-allowed'. The embed
 * page sends even the expected 404s to the server log. Resolves to null when `signal` aborted it.
 * No React: the embed page runs without it (pages/share/embed-start.ts).
 */
export async function loadEmbedDetail(
  token: string | undefined,
  page: PublicPage,
  signal?: AbortSignal,
): Promise<Exclude<EmbedDetailState, { status: 'loading' }> | null> {
  if (!isPlausibleToken(token)) {
    if (page === 'embed')
      logError('Embed page: malformed token', { token: String(token).slice(0, 80) }, 'warn');
    return { status: 'unavailable' };
  }
  try {
    const detail = await fetchEmbedDetail(token, signal);
    const safeUrl = safeFrameUrl(detail.url, window.location.origin);
    if (!safeUrl) {
      logError(`${page} page: unusable embed detail answer`, detail);
      return { status: 'unavailable' };
    }
    keepViewerToken(token, detail.viewer);
    return { status: 'ready', detail, frameUrl: safeUrl };
  } catch (error) {
    if (signal?.aborted) return null;
    if (error instanceof ApiError && error.code === ERROR_CODES.embedHostNotAllowed) {
      return { status: 'not-allowed' };
    }
    const expected = error instanceof ApiError && error.statusCode === 404;
    if (!expected || page === 'embed') {
      logError(`${page} page: embed detail failed`, error, expected ? 'warn' : 'error');
    }
    return { status: 'unavailable' };
  }
}
