import { useEffect, useState } from 'react';
import { ApiError } from '../api/api-error';
import { logError } from '../logging/error-logger';
import type { EmbedDetail } from '@helix/shared/schemas/model';
import { fetchEmbedDetail } from './embed-detail.api';
import { isPlausibleToken, safeFrameUrl } from './share-links';
import { viewerId, withViewerId } from './viewer-id';

export type EmbedDetailState =
  | { status: 'loading' }
  | { status: 'ready'; detail: EmbedDetail; frameUrl: string }
  | { status: 'unavailable' };

/**
 * The public share and embed pages: POST /api/model/embed/detail for the token. Every failure (a
 * malformed, unknown or revoked token, a deleted model, a network error, a strange answer) ends in
 * 'unavailable', never a crash. `logAll` sends even the expected 404s to the server log (embed page).
 */
export function useEmbedDetail(token: string | undefined, page: 'share' | 'embed'): EmbedDetailState {
  const plausible = isPlausibleToken(token);
  const [state, setState] = useState<EmbedDetailState>(
    plausible ? { status: 'loading' } : { status: 'unavailable' },
  );

  useEffect(() => {
    if (!isPlausibleToken(token)) {
      if (page === 'embed')
        logError('Embed page: malformed token', { token: String(token).slice(0, 80) }, 'warn');
      setState({ status: 'unavailable' });
      return;
    }
    const controller = new AbortController();
    setState({ status: 'loading' });
    fetchEmbedDetail(token, controller.signal)
      .then((detail) => {
        const safeUrl = safeFrameUrl(detail.url, window.location.origin);
        if (!safeUrl) {
          logError(`${page} page: unusable embed detail answer`, detail);
          setState({ status: 'unavailable' });
          return;
        }
        setState({ status: 'ready', detail, frameUrl: withViewerId(safeUrl, viewerId()) });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const expected = error instanceof ApiError && error.statusCode === 404;
        if (!expected || page === 'embed') {
          logError(`${page} page: embed detail failed`, error, expected ? 'warn' : 'error');
        }
        setState({ status: 'unavailable' });
      });
    return () => controller.abort();
  }, [token, page]);

  return state;
}
