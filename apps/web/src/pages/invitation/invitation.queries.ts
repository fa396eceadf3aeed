import { queryOptions } from '@tanstack/react-query';
import { fetchInvitation } from '../../api/invitation.api';

/** The invitation page's query keys and reads, in one place. */
const invitationKeys = {
  all: ['invitation'] as const,
  byToken: (token: string) => [...invitationKeys.all, token] as const,
};

/** What an invitation link opens (its school and state). */
export const invitationQuery = (token: string) =>
  queryOptions({
    queryKey: invitationKeys.byToken(token),
    queryFn: () => fetchInvitation(token),
  });
