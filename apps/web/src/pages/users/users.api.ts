import {
  BulkInviteBatchView,
  BulkInviteStarted,
  MessageAnswer,
  type BulkInviteRow,
  type InviteRequest,
} from '@helix/shared/schemas/invite';
import { TenantUserList, UserDetailView } from '@helix/shared/schemas/tenant-user';
import { tenantApi, type RequestOptions } from '../../api/client';
import { sendOrQueue } from '../../offline/outbox';

/** The users area's calls (administration-content 7); every answer parsed with the shared schema. */

export const fetchTenantUsers = async (options?: RequestOptions): Promise<TenantUserList> =>
  TenantUserList.parse(await tenantApi.get<unknown>('/user/all', options));

export const fetchUserDetail = async (id: number, options?: RequestOptions): Promise<UserDetailView> =>
  UserDetailView.parse(await tenantApi.post<unknown>('/user/detail', { id }, options));

export const deleteUser = async (user: { id: number; email: string }, options?: RequestOptions) =>
  MessageAnswer.parse(
    await tenantApi.post<unknown>('/user/delete', { id: user.id, email: user.email }, options),
  );

export const inviteUser = async (body: InviteRequest, options?: RequestOptions) =>
  MessageAnswer.parse(await tenantApi.post<unknown>('/user/invite', body, options));

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
