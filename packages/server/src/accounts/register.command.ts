import { MSG, type RegisterRequest } from '@helix/shared';
import type { AuthResponse } from '@helix/shared/schemas/session';
import type { z } from 'zod';
import { hashPassword } from '../auth/password.ts';
import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';
import { uniqueViolation, violates } from '../prisma-errors.ts';
import { createSessionTx } from '../sessions/session.service.ts';
import { authResponse } from './auth-response.ts';
import { createCustomerTenant } from './customer-tenant.ts';
import { withTransaction } from '../db/transaction.ts';

type RegisterInput = z.output<typeof RegisterRequest>;

/** Both field errors at once when both are taken (409). */
export async function assertAvailable(
  db: Db,
  input: { email?: string; userName?: string },
  exceptUserId?: number,
) {
  const errors: Record<string, string> = {};
  const not = exceptUserId === undefined ? {} : { id: { not: exceptUserId } };
  if (
    input.email &&
    (await db.user.findFirst({ where: { email: input.email, ...not }, select: { id: true } }))
  ) {
    errors.email = MSG.emailTaken;
  }
  if (
    input.userName &&
    (await db.user.findFirst({ where: { userName: input.userName, ...not }, select: { id: true } }))
  ) {
    errors.user_name = MSG.usernameTaken;
  }
  const first = Object.values(errors)[0];
  if (first) throw AppError.conflict(first, errors);
}

/** Maps a unique violation that slipped past the checks (two sign-ups at once) to the same field errors. */
export function conflictFromUniqueViolation(error: unknown): AppError | null {
  const detail = uniqueViolation(error);
  if (violates(detail, 'User', 'email')) return AppError.conflict(MSG.emailTaken, { email: MSG.emailTaken });
  if (violates(detail, 'User', 'userName')) {
    return AppError.conflict(MSG.usernameTaken, { user_name: MSG.usernameTaken });
  }
  return null;
}

/**
 * Sign-up: a customer tenant and its owner, then an automatic login (authType 'is-register').
 */
export async function register(
  db: Db,
  input: RegisterInput,
  meta: { userAgent?: string | null } = {},
): Promise<AuthResponse> {
  await assertAvailable(db, { email: input.email, userName: input.user_name });
  const passwordHash = await hashPassword(input.password);

  for (let attempt = 1; ; attempt += 1) {
    try {
      const { user, token } = await withTransaction(db, async (tx) => {
        const { user } = await createCustomerTenant(tx, {
          name: input.name,
          userName: input.user_name,
          email: input.email,
          passwordHash,
          emailStatus: input.emailstatus,
        });
        const { token } = await createSessionTx(tx, {
          userId: user.id,
          rememberMe: false,
          userAgent: meta.userAgent,
        });
        return { user, token };
      });
      return await authResponse(db, {
        userId: user.id,
        token,
        authType: 'is-register',
        rememberMe: false,
        message: MSG.registrationSuccess,
      });
    } catch (error) {
      const conflict = conflictFromUniqueViolation(error);
      if (conflict) throw conflict;
      // Another sign-up took the same tenant prefix a moment earlier: pick again.
      if (violates(uniqueViolation(error), 'Tenant', 'domainPrefix') && attempt < 3) continue;
      throw error;
    }
  }
}
