import { ERROR_CODES } from '@helix/shared/error-codes';
import { MSG, type LoginRequest } from '@helix/shared';
import type { AuthResponse } from '@helix/shared/schemas/session';
import type { z } from 'zod';
import { verifyPassword } from '../auth/password.ts';
import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';
import { createSession } from '../sessions/session.service.ts';
import { authResponse } from './auth-response.ts';

type LoginInput = z.output<typeof LoginRequest>;

/**
 * Bad credentials answer 400 (not 401): the web treats every 401 but 'Invalid token' as "your
 * session ended" and logs out, which is wrong on the login form. The same answer for an unknown
 * address, a wrong password, a deleted user and a user without a password.
 */
export const invalidCredentials = () =>
  new AppError(ERROR_CODES.invalidCredentials, {
    status: 400,
    message: MSG.invalidCredentials,
    errors: { password: MSG.invalidCredentials },
  });

export async function login(
  db: Db,
  input: LoginInput,
  meta: { userAgent?: string | null } = {},
): Promise<AuthResponse> {
  const user = await db.user.findUnique({
    where: { email: input.email },
    select: { id: true, passwordHash: true, deletedAt: true },
  });
  // verifyPassword spends the same time when there is no user or no password.
  const ok = await verifyPassword(user && !user.deletedAt ? user.passwordHash : null, input.password);
  if (!user || user.deletedAt || !ok) throw invalidCredentials();

  const rememberMe = input.rememberMe ?? false;
  const { token } = await createSession(db, { userId: user.id, rememberMe, userAgent: meta.userAgent });
  return authResponse(db, { userId: user.id, token, authType: 'is-loggedin', rememberMe });
}
