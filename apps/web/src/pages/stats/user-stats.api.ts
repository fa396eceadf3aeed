import { UserStatsPage, type UserStatsQuery } from '@helix/shared/schemas/list-query';
import { tenantApi } from '../../api/client';

/** GET /stats/users: one page of the top users (the answer parsed with the shared schema). */
export async function fetchUserStats(query: UserStatsQuery, signal?: AbortSignal): Promise<UserStatsPage> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(key, String(value));
  return UserStatsPage.parse(
    await tenantApi.get(`/stats/users?${params.toString()}`, { signal, toast: false }),
  );
}
