import { EmbedLinkList, EmbedLinkView, type EmbedLinkExpiry } from '@helix/shared/schemas/embed-link';
import { tenantApi } from '../api/client';

export type { EmbedLinkView };

/** GET /model/links, parsed with the shared answer schema. The page shows its own failure state. */
export async function fetchLinks(signal?: AbortSignal): Promise<EmbedLinkView[]> {
  const answer = await tenantApi.get<unknown>('/model/links', { signal, toast: false });
  return EmbedLinkList.parse(answer).links;
}

/** POST /model/links/revoke: the link as it is now (revoked). */
export async function revokeLink(id: number): Promise<EmbedLinkView> {
  return EmbedLinkView.parse(await tenantApi.post<unknown>('/model/links/revoke', { id }));
}

/** POST /model/links/expiry (a future ISO date-time, or null: never expires): the link as it is now. */
export async function setLinkExpiry(input: EmbedLinkExpiry): Promise<EmbedLinkView> {
  return EmbedLinkView.parse(await tenantApi.post<unknown>('/model/links/expiry', input));
}
