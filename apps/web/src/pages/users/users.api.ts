import {
  BulkInviteBatchView,
  BulkInviteStarted,
  MessageAnswer,
  type BulkInviteRow,
  type InviteRequest,
} from '@helix/shared/schemas/invite';
import {
  TenantUserList,
  TenantUserPage,
  UserDetailView,
  type TenantUsersQuery,
} from '@helix/shared/schemas/tenant-user';
import { tenantApi, type RequestOptions } from '../../api/client';
import { sendOrQueue } from '../../offline/outbox';
import { withListQuery } from '../../ui/use-server-list';

/** The users area's calls (administration-content 7); every answer parsed with the shared schema. */

/** Every user matching `query` (no paging: the export, the bulk invite's duplicate check). */
export const fetchTenantUsers = async (
  options?: RequestOptions,
  query: Omit<TenantUsersQuery, 'page' | 'pageSize'> = {},
): Promise<TenantUserList> =>
  TenantUserList.parse(await tenantApi.get<unknown>(withListQuery('/user/all', query), options));

/** One page of the users list (docs/lists-at-scale.md). */
export const fetchTenantUsersPage = async (
  query: TenantUsersQuery,
  signal?: AbortSignal,
): Promise<TenantUserPage> =>
  TenantUserPage.parse(
    await tenantApi.get<unknown>(withListQuery('/user/all', query), { signal, toast: false }),
  );

export const fetchUserDetail = async (id: number, options?: RequestOptions): Promise<UserDetailView> =>
  UserDetailView.parse(await tenantApi.post<unknown>('/user/detail', { id }, options));

export const deleteUser = async (user: { id: number; email: string }, options?: RequestOptions) =>
  MessageAnswer.parse(
    await tenantApi.post<unknown>('/user/delete', { id: user.id, email: user.email }, options),
  );

/** A single invite through the outbox: sent now, or queued when offline (sent once, by its key). */
export const inviteUserOrQueue = (body: InviteRequest) =>
  sendOrQueue<unknown>({
    kind: 'user.invite',
    target: `invite:${body.email}`,
    label: `Invite ${body.name} <${body.email}>`,
    path: '/user/invite',
    body,
    baseVersion: null,
    toastRefusal: false,
  }).then((result) =>
    result.status === 'sent' ? { status: 'sent' as const, data: MessageAnswer.parse(result.data) } : result,
  );

export const resendInvite = async (user: { id: number; name: string; email: string }) =>
  MessageAnswer.parse(
    await tenantApi.post<unknown>('/user/resend-invite', {
      id: user.id,
      name: user.name,
      email: user.email,
      subject: 'Invitation to Helix',
    }),
  );

export const bulkInvite = async (users: BulkInviteRow[], options?: RequestOptions) =>
  BulkInviteStarted.parse(
    await tenantApi.post<unknown>('/user/bulk-invite', { users }, { timeoutMs: 120_000, ...options }),
  );

export const fetchBulkBatch = async (id: number, options?: RequestOptions) =>
  BulkInviteBatchView.parse(await tenantApi.get<unknown>(`/user/bulk-invite/${id}`, options));
