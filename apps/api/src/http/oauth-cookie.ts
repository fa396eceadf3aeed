import type { CookieOptions, Request, Response } from 'express';
import type { Config } from '@helix/server';
import { GOOGLE_CODE_TTL_SECONDS } from '@helix/server/accounts/google.command';
import { randomToken } from '@helix/server/tokens';

/** The browser secret of Google sign-in (see `browserBinding` in google.command.ts). */
const OAUTH_COOKIE = 'helix_oauth';

/** The OAuth state lives 10 minutes: long enough to pick an account at Google. */
export const OAUTH_STATE_TTL_SECONDS = 600;

const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The sign-in cookie: HttpOnly (no script reads it), SameSite=Lax (sent on the provider's top-level
 * redirect back to us, not on cross-site subrequests), only under /api, Secure when the portal is
 * served over https. It outlives the state and the one-time code, and is cleared once used.
 */
export function oauthCookie(config: Pick<Config, 'PUBLIC_URL'>) {
  const options: CookieOptions = {
    httpOnly: true,
    sameSite: 'lax',
    path: '/api',
    secure: new URL(config.PUBLIC_URL).protocol === 'https:',
  };
  return {
    /** A new secret for this browser, set as the cookie; answers the secret. */
    issue(res: Response): string {
      const secret = randomToken();
      res.cookie(OAUTH_COOKIE, secret, {
        ...options,
        maxAge: (OAUTH_STATE_TTL_SECONDS + GOOGLE_CODE_TTL_SECONDS) * 1000,
      });
      return secret;
    },
    /** The secret this request carries, if it has a well-formed one. */
    read(req: Request): string | undefined {
      const value = readCookie(req, OAUTH_COOKIE);
      return value !== undefined && SECRET_SHAPE.test(value) ? value : undefined;
    },
    clear(res: Response): void {
      res.clearCookie(OAUTH_COOKIE, options);
    },
  };
}

/** One cookie's raw value from the Cookie header (the first one of that name). */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
