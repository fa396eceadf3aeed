import { InvitationView, type AcceptInvitationRequest } from '@helix/shared/schemas/invitation';
import { AuthResponse } from '@helix/shared/schemas/session';
import { baseApi } from './client';

/** What an invitation link opens (GET /api/user/invitation, no session): the page shows its own messages. */
export const fetchInvitation = (token: string): Promise<InvitationView> =>
  baseApi
    .get<unknown>(`/user/invitation?token=${encodeURIComponent(token)}`, { toast: false })
    .then((answer) => InvitationView.parse(answer));

/** Join by the invitation page: the invitee is signed in (is-loggedin). */
export const acceptInvitation = (body: AcceptInvitationRequest): Promise<AuthResponse> =>
  baseApi.post<unknown>('/user/invitation/accept', body).then((answer) => AuthResponse.parse(answer));

/** An expired link's holder asks the school for a new invitation (the server's toast on failure). */
export const requestInvitationRenewal = (token: string): Promise<{ message: string }> =>
  baseApi.post<{ message: string }>('/user/invitation/renewal-request', { token });
