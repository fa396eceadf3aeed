import {
  AddUserResponse,
  PlatformUserPage,
  type AddUserRequest,
  type PlatformUsersQuery,
  type PlatformUserView,
} from '@helix/shared/schemas/platform-user';
import { tenantApi } from '../../api/client';
import { withListQuery } from '../../ui/use-server-list';

export type PlatformUser = PlatformUserView;

/** One page of every school's users (/users, /permissions; docs/lists-at-scale.md). */
export const fetchPlatformUsersPage = async (
  query: PlatformUsersQuery,
  signal?: AbortSignal,
): Promise<PlatformUserPage> =>
  PlatformUserPage.parse(
    await tenantApi.get<unknown>(withListQuery('/user/all', query), { signal, toast: false }),
  );

/** Add-user: a customer tenant, its owner and a plan granted by the platform. */
export const addPlatformUser = async (body: AddUserRequest): Promise<AddUserResponse> =>
  AddUserResponse.parse(await tenantApi.post<unknown>('/user/add-user', body));
