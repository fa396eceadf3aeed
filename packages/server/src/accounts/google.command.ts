import { MSG } from '@helix/shared';
import type { AuthResponse } from '@helix/shared/schemas/session';
import { z } from 'zod';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { redisKey } from '../redis.ts';
import { createSessionTx } from '../sessions/session.service.ts';
import { randomToken, sameSecret, sha256 } from '../tokens.ts';
import { authResponse } from './auth-response.ts';
import { createCustomerTenant, freeUserName } from './customer-tenant.ts';
import { uniqueViolation, violates } from '../prisma-errors.ts';
import { withTransaction } from '../db/transaction.ts';

/** What the OAuth callback learnt about the person, kept in Redis behind a one-time code. */
export const GoogleProfile = z.object({
  googleId: z.string().min(1).max(255),
  email: z.email().max(254),
  emailVerified: z.boolean(),
  name: z.string().max(100),
  picture: z.string().max(2000).nullable(),
});
export type GoogleProfile = z.infer<typeof GoogleProfile>;

/** The one-time code lives 60 seconds: the browser uses it at once. */
export const GOOGLE_CODE_TTL_SECONDS = 60;

/**
 * The browser that started sign-in holds a random secret in an HttpOnly cookie; the OAuth state and
 * the one-time code both keep its sha256, so neither can be finished or redeemed in another browser
 * (login CSRF: an attacker's code planted in a victim's browser would sign the victim in as the
 * attacker).
 */
export const browserBinding = (browserSecret: string): string => sha256(browserSecret);

/** Whether the browser secret a request carries is the one a state or code was bound to. */
export const sameBrowser = (binding: string, browserSecret: string | undefined): boolean =>
  typeof browserSecret === 'string' &&
  browserSecret !== '' &&
  sameSecret(binding, browserBinding(browserSecret));

const StoredCode = z.object({ profile: GoogleProfile, browser: z.string().min(1) });

const codeKey = (prefix: string, code: string) => redisKey(prefix, 'oauth', 'code', code);

/** Keeps the profile behind a new one-time code, bound to the browser (its `browserBinding`). */
export async function storeGoogleProfile(
  deps: Pick<ServerDeps, 'redis' | 'config'>,
  profile: GoogleProfile,
  browser: string,
) {
  const code = randomToken();
  const stored: z.infer<typeof StoredCode> = { profile: GoogleProfile.parse(profile), browser };
  await deps.redis.set(
    codeKey(deps.config.REDIS_PREFIX, code),
    JSON.stringify(stored),
    'EX',
    GOOGLE_CODE_TTL_SECONDS,
  );
  return code;
}

const failed = () => AppError.badRequest(MSG.somethingWentWrong);

/**
 * Takes the profile behind a code; a second use finds nothing (GETDEL). A code presented by another
 * browser is used up and refused.
 */
async function takeGoogleProfile(
  deps: Pick<ServerDeps, 'redis' | 'config'>,
  code: string,
  browserSecret: string | undefined,
): Promise<GoogleProfile> {
  const raw = await deps.redis.getdel(codeKey(deps.config.REDIS_PREFIX, code));
  if (!raw) throw failed();
  let stored: unknown;
  try {
    stored = JSON.parse(raw);
  } catch {
    throw failed();
  }
  const parsed = StoredCode.safeParse(stored);
  if (!parsed.success || !sameBrowser(parsed.data.browser, browserSecret)) throw failed();
  return parsed.data.profile;
}

/**
 * After the Google round trip (POST /user/validate and /user/validate-login, same rule for both): a
 * known account (by Google id, else by a verified e-mail address, which then gets linked) is logged
 * in ('is-loggedin'); an unknown person gets a customer tenant like a sign-up ('is-register'). Only the
 * browser that started sign-in (`browserSecret`, its cookie) can redeem the code.
 */
export async function validateGoogle(
  deps: Pick<ServerDeps, 'db' | 'redis' | 'config'>,
  input: { code: string; browserSecret: string | undefined },
  meta: { userAgent?: string | null } = {},
): Promise<AuthResponse> {
  const profile = await takeGoogleProfile(deps, input.code, input.browserSecret);
  const email = profile.email.toLowerCase();
  const { db } = deps;

  const existing =
    (await db.user.findUnique({ where: { googleId: profile.googleId } })) ??
    (await db.user.findUnique({ where: { email } }));
  if (existing) {
    if (existing.deletedAt) throw failed();
    // Linking by address only when Google vouches for it, or anyone could claim an account.
    if (existing.googleId !== profile.googleId && (!profile.emailVerified || existing.googleId))
      throw failed();
    const token = await withTransaction(db, async (tx) => {
      if (!existing.googleId)
        await tx.user.update({ where: { id: existing.id }, data: { googleId: profile.googleId } });
      return (
        await createSessionTx(tx, { userId: existing.id, rememberMe: false, userAgent: meta.userAgent })
      ).token;
    });
    return authResponse(db, { userId: existing.id, token, authType: 'is-loggedin', rememberMe: false });
  }

  if (!profile.emailVerified) throw failed();
  for (let attempt = 1; ; attempt += 1) {
    try {
      const { userId, token } = await withTransaction(db, async (tx) => {
        const userName = await freeUserName(tx, email);
        const { user } = await createCustomerTenant(tx, {
          name: profile.name.trim() || userName,
          userName,
          email,
          passwordHash: null,
          emailStatus: false,
          googleId: profile.googleId,
          profilePicture: profile.picture,
        });
        const { token } = await createSessionTx(tx, {
          userId: user.id,
          rememberMe: false,
          userAgent: meta.userAgent,
        });
        return { userId: user.id, token };
      });
      return await authResponse(db, { userId, token, authType: 'is-register', rememberMe: false });
    } catch (error) {
      const detail = uniqueViolation(error);
      if (detail === null) throw error;
      // The same person twice at once is a failure; a username or prefix taken a moment ago: pick again.
      if (violates(detail, 'User', 'email') || violates(detail, 'User', 'googleId') || attempt >= 3)
        throw failed();
    }
  }
}
