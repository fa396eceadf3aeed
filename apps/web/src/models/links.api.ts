import type { ListQueryParams } from '@helix/shared/schemas/list-query';
import {
  EmbedLinkPage,
  EmbedLinkView,
  type EMBED_LINK_SORTS,
  type EmbedLinkExpiry,
  type EmbedLinkHosts,
} from '@helix/shared/schemas/embed-link';
import { tenantApi } from '../api/client';
import { listQueryString } from '../ui/use-server-list';

export type { EmbedLinkView };

/** GET /model/links?page=…: one page, parsed with the shared answer schema. The page shows its own failure state. */
export async function fetchLinkPage(
  query: ListQueryParams<(typeof EMBED_LINK_SORTS)[number]>,
  signal?: AbortSignal,
): Promise<EmbedLinkPage> {
  const answer = await tenantApi.get<unknown>(`/model/links?${listQueryString(query)}`, {
    signal,
    toast: false,
  });
  return EmbedLinkPage.parse(answer);
}

/** POST /model/links/revoke: the link as it is now (revoked). */
export async function revokeLink(id: number): Promise<EmbedLinkView> {
  return EmbedLinkView.parse(await tenantApi.post<unknown>('/model/links/revoke', { id }));
}

/** POST /model/links/expiry (a future ISO date-time, or null: never expires): the link as it is now. */
export async function setLinkExpiry(input: EmbedLinkExpiry): Promise<EmbedLinkView> {
  return EmbedLinkView.parse(await tenantApi.post<unknown>('/model/links/expiry', input));
}

/** POST /model/links/hosts (the sites whose pages may show the link; none: any site): the link as it is now. */
export async function setLinkHosts(input: EmbedLinkHosts): Promise<EmbedLinkView> {
  return EmbedLinkView.parse(await tenantApi.post<unknown>('/model/links/hosts', input));
}
