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

/** The changes of one link, by the last part of their path: POST /model/links/{change}. */
interface LinkChanges {
  /** Revoke it. */
  revoke: { id: number };
  /** A future ISO date-time, or null: never expires. */
  expiry: EmbedLinkExpiry;
  /** The sites whose pages may show the link; none: any site. */
  hosts: EmbedLinkHosts;
}
export type LinkChange = keyof LinkChanges;
export type LinkChangeInput<C extends LinkChange> = LinkChanges[C];

/** POST /model/links/{revoke|expiry|hosts}: the link as it is now. */
export async function changeLink<C extends LinkChange>(
  change: C,
  input: LinkChanges[C],
): Promise<EmbedLinkView> {
  return EmbedLinkView.parse(await tenantApi.post<unknown>(`/model/links/${change}`, input));
}
