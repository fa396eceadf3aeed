import { EmbedDetail } from '@helix/shared/schemas/model';
import { ApiError } from '../api/api-error';
import { baseApi } from '../api/client';
import { takeEarlyEmbedDetail } from './embed-detail-prefetch';

/**
 * POST /model/embed/detail, for the public share and embed pages: no session, no toast, no popup; the
 * page decides what to show. Its own module: those pages are shown inside other people's sites and
 * must not download the signed-in screens' API (and the offline outbox it brings). The answer boot.ts
 * asked for early is used when there is one (./embed-detail-prefetch.ts).
 */
export function fetchEmbedDetail(token: string, signal?: AbortSignal): Promise<EmbedDetail> {
  const early = takeEarlyEmbedDetail(token);
  if (early) return early.then(readAnswer);
  return baseApi
    .post<unknown>('/model/embed/detail', { token }, { signal, toast: false, sessionEffects: false })
    .then((answer) => EmbedDetail.parse(answer));
}

/** The early answer read as the API client reads one: the detail, or the server's failure as an ApiError. */
async function readAnswer(response: Response): Promise<EmbedDetail> {
  const text = await response.text().catch(() => '');
  let data: unknown;
  try {
    data = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    data = undefined;
  }
  if (!response.ok) throw ApiError.fromResponse(response.status, response.statusText, data);
  return EmbedDetail.parse(data);
}
