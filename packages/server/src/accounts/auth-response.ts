import type { AuthType } from '@helix/shared';
import type { AuthResponse } from '@helix/shared/schemas/session';
import type { Db } from '../db.ts';
import { presentSessionUser } from '../presenters/session-user.presenter.ts';
import { sessionUserInclude } from '../sessions/session-user.include.ts';

/** The answer of login, register, join and Google validation: a new session and the session user. */
export async function authResponse(
  db: Db,
  input: { userId: number; token: string; authType: AuthType; rememberMe: boolean; message?: string },
): Promise<AuthResponse> {
  const user = await db.user.findUniqueOrThrow({ where: { id: input.userId }, include: sessionUserInclude });
  const presented = presentSessionUser(user);
  return {
    authType: input.authType,
    apiToken: input.token,
    tenant: presented.tenant,
    user: presented,
    rememberMe: input.rememberMe,
    ...(input.message === undefined ? {} : { message: input.message }),
  };
}
