import {
  AddUserResponse,
  PlatformUserList,
  type AddUserRequest,
  type PlatformUserView,
} from '@helix/shared/schemas/platform-user';
import { tenantApi, type RequestOptions } from '../../api/client';

export type PlatformUser = PlatformUserView;

/** GET /user/all as a platform admin: every user, with payment plan and company name. */
export const fetchPlatformUsers = async (options?: RequestOptions): Promise<PlatformUser[]> =>
  PlatformUserList.parse(await tenantApi.get<unknown>('/user/all', options));

/** Add-user: a customer tenant, its owner and a plan granted by the platform. */
export const addPlatformUser = async (body: AddUserRequest): Promise<AddUserResponse> =>
  AddUserResponse.parse(await tenantApi.post<unknown>('/user/add-user', body));
