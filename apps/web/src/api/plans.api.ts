import { toPlanList, type Plan } from '../plans/plan-display';
import { baseApi, tenantApi } from './client';

/**
 * Guests see the public catalogue (base call); a signed-in user sees it with `isSubscribed` marked.
 * The page shows 'Failed to load Subscriptions' itself, so the server toast is off.
 */
export async function fetchPlans(source: 'guest' | 'tenant', signal?: AbortSignal): Promise<Plan[]> {
  const answer =
    source === 'guest'
      ? await baseApi.get<unknown>('/guest/subscription/list', { signal, toast: false })
      : await tenantApi.get<unknown>('/subscriptionplan/all', { signal, toast: false });
  return toPlanList(answer);
}
