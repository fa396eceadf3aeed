import { z } from 'zod';
import type { AuthType } from '@helix/shared';
import { sessionSubscriptionState } from '../billing/subscription-state';
import { SessionUser as PresentedSessionUser } from '@helix/shared/schemas/session';
import { NO_SESSION_ABILITIES, type SessionAbilities } from '@helix/shared/schemas/abilities';

/**
 * The session user as the API presents it (the shared `SessionUser` answer schema), plus the
 * remember-me flag of the login, as the `user` cookie keeps it.
 */
export const StoredSessionUser = PresentedSessionUser.extend({ rememberMe: z.boolean().optional() });
export type SessionUser = z.infer<typeof StoredSessionUser>;
export type SessionSubscription = NonNullable<SessionUser['subscription']>;
/** What the guard and the menus need to know about who is looking. */
export interface Session {
  user: SessionUser | null;
  authType: AuthType | null;
}

/**
 * What the server says this session may do (its pages and global actions): the web shows, hides and
 * disables by these alone. Nobody signed in, or a stored copy from before they existed: nothing.
 */
export const abilitiesOf = (user: SessionUser | null | undefined): SessionAbilities =>
  user?.abilities ?? NO_SESSION_ABILITIES;

/** The plan is in force (trial, subscribed, cancelled before its end, payment being retried): the shared rule. */
export const hasActivePayment = (user: SessionUser | null): boolean =>
  Boolean(user) && sessionSubscriptionState(user?.subscription).inForce;

/**
 * The header's Settings item: a platform admin (the server gives them no school page) or a subscribed
 * user.
 */
export const canSeeSettings = (user: SessionUser | null): boolean =>
  Boolean(user && ((user.abilities && !user.abilities.subscription) || hasActivePayment(user)));

/**
 * Reads the `user` cookie with the shared schema. Anything that is not a session user counts as
 * corrupt, and a corrupt cookie logs the user out (accounts 4).
 */
export function parseSessionUser(raw: string | undefined): { user: SessionUser | null; corrupt: boolean } {
  if (raw === undefined || raw === '') return { user: null, corrupt: false };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { user: null, corrupt: true };
  }
  const parsed = StoredSessionUser.safeParse(value);
  return parsed.success ? { user: parsed.data, corrupt: false } : { user: null, corrupt: true };
}

/** Browsers silently drop cookies over ~4 KB, which would look like a logout, so big fields stay out. */
export const MAX_USER_COOKIE_CHARS = 3000;

export function serializeSessionUser(user: SessionUser): string {
  const full = JSON.stringify({ ...user, subscription: user.subscription ?? null });
  if (full.length <= MAX_USER_COOKIE_CHARS) return full;
  return JSON.stringify({ ...user, subscription: user.subscription ?? null, profilePicture: null });
}
