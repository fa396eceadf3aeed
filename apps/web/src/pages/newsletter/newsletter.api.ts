import { SubscriberList, type SubscriberView } from '@helix/shared/schemas/newsletter';
import { tenantApi, type RequestOptions } from '../../api/client';

export type Subscriber = SubscriberView;

export const fetchSubscribers = async (options?: RequestOptions): Promise<Subscriber[]> =>
  SubscriberList.parse(await tenantApi.get<unknown>('/subscribers', options));
