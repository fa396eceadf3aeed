import { EmbedDetail } from '@helix/shared/schemas/model';
import { baseApi, readAnswer } from '../api/client';
import { takeEarlyEmbedDetail } from './embed-detail-prefetch';
import { embedHostContext } from './embed-host-context';
import { keptViewerToken } from './viewer-token-store';

/** No session, no toast, no popup: the page decides what to show. */
const QUIET = { toast: false, sessionEffects: false } as const;

/**
 * POST /model/embed/detail, for the public share and embed pages. Its own module: those pages are
 * shown inside other people's sites and must not download the signed-in screens' API (and the offline
 * outbox it brings). The answer boot.ts asked for early is used when there is one
 * (./embed-detail-prefetch.ts). The viewer token kept from the link's last load goes with it.
 */
export function fetchEmbedDetail(token: string, signal?: AbortSignal): Promise<EmbedDetail> {
  const early = takeEarlyEmbedDetail(token);
  const answer = early
    ? early.then((response) => readAnswer<unknown>(response, false, QUIET))
    : baseApi.post<unknown>(
        '/model/embed/detail',
        { token, viewer: keptViewerToken(token), host: embedHostContext() },
        { ...QUIET, signal },
      );
  return answer.then((data) => EmbedDetail.parse(data));
}
