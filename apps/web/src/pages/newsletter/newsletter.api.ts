import type { ListQueryParams } from '@helix/shared/schemas/list-query';
import {
  SubscriberList,
  SubscriberPage,
  type NEWSLETTER_SORTS,
  type SubscriberView,
} from '@helix/shared/schemas/newsletter';
import { tenantApi, type RequestOptions } from '../../api/client';
import { listQueryString } from '../../ui/use-server-list';

export type Subscriber = SubscriberView;
type Query = ListQueryParams<(typeof NEWSLETTER_SORTS)[number]>;

/** GET /subscribers?page=…: one page of the list (search, sort and order by the server). */
export const fetchSubscriberPage = async (query: Query, signal?: AbortSignal): Promise<SubscriberPage> =>
  SubscriberPage.parse(
    await tenantApi.get<unknown>(`/subscribers?${listQueryString(query)}`, { signal, toast: false }),
  );

/** GET /subscribers without a page: every subscriber matching the search, in the order asked (the export). */
export const fetchSubscribers = async (
  query: Omit<Query, 'page' | 'pageSize'> = {},
  options?: RequestOptions,
): Promise<Subscriber[]> =>
  SubscriberList.parse(await tenantApi.get<unknown>(`/subscribers?${listQueryString(query)}`, options));
