import { MSG } from '@helix/shared';
import type { AuthResponse } from '@helix/shared/schemas/session';
import type { AcceptInvitationRequest } from '@helix/shared/schemas/invitation';
import type { z } from 'zod';
import { freeUserName } from '../accounts/customer-tenant.ts';
import { join, openInvite } from '../accounts/join.command.ts';
import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';

/** The placeholder username an invited user has until they join (invited-users.ts). */
const PLACEHOLDER_USERNAME = /^invite\./;

/**
 * POST /user/invitation/accept: the invitation page's Join. The e-mail is the invitation's (the page
 * shows it read-only); the username, which the page does not ask for, is the one the user has, or for
 * an invited user's placeholder the letters of the e-mail's local part made unique (as Google
 * sign-in does). Then the same join as the sign-up form's: the invite used up, the user signed in.
 */
export async function acceptInvitation(
  db: Db,
  input: z.output<typeof AcceptInvitationRequest>,
  meta: { userAgent?: string | null } = {},
  now = new Date(),
): Promise<AuthResponse> {
  const invite = await openInvite(db, input.token, now);
  if (!invite) throw AppError.badRequest(MSG.inviteInvalid, { token: MSG.inviteInvalid });
  const userName = PLACEHOLDER_USERNAME.test(invite.user.userName)
    ? await freeUserName(db, invite.user.email)
    : invite.user.userName;
  return join(
    db,
    {
      token: input.token,
      name: input.name,
      email: invite.user.email,
      user_name: userName,
      password: input.password,
      emailstatus: false,
    },
    meta,
    now,
  );
}
