import { AppError } from '../errors.ts';
import type { Db, Prisma, Session } from '../db.ts';
import { randomToken, sha256 } from '../tokens.ts';
import type { Actor } from './actor.ts';
import { sessionUserInclude } from './session-user.include.ts';
import { effectivePermissions } from '../auth/permissions.ts';
import { withTransaction } from '../db/transaction.ts';

export type { Actor, PolicyActor } from './actor.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** 365 days with remember me; otherwise the browser keeps a session cookie and the server 24 hours. */
export const SESSION_TTL_MS = { rememberMe: 365 * DAY_MS, default: DAY_MS } as const;
/** lastSeenAt is written at most this often, so reads stay reads. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;
/** Our tokens are 43 base64url characters; anything else is not worth a database round trip. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,200}$/;

export interface NewSession {
  token: string;
  session: Session;
}

/**
 * One computer at a time: a new session ends every other active session of the user (reason
 * 'replaced', which answers 401 'Invalid token'). The user's row is locked first, so two logins at the
 * same moment cannot both survive.
 */
export async function createSessionTx(
  tx: Prisma.TransactionClient,
  input: { userId: number; rememberMe: boolean; userAgent?: string | null },
  now = new Date(),
): Promise<NewSession> {
  await tx.$queryRaw`SELECT id FROM "User" WHERE id = ${input.userId} FOR UPDATE`;
  await tx.session.updateMany({
    where: { userId: input.userId, endedAt: null },
    data: { endedAt: now, endedReason: 'replaced' },
  });
  const token = randomToken();
  const session = await tx.session.create({
    data: {
      userId: input.userId,
      tokenHash: sha256(token),
      rememberMe: input.rememberMe,
      userAgent: input.userAgent?.slice(0, 500) ?? null,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(
        now.getTime() + (input.rememberMe ? SESSION_TTL_MS.rememberMe : SESSION_TTL_MS.default),
      ),
    },
  });
  return { token, session };
}

export function createSession(
  db: Db,
  input: { userId: number; rememberMe: boolean; userAgent?: string | null },
): Promise<NewSession> {
  return withTransaction(db, (tx) => createSessionTx(tx, input));
}

/**
 * Bearer token to actor. An ended session answers 401 'Invalid token' when a newer login replaced it
 * (the multiple-login popup) and a plain 401 for every other reason (logout, expiry, password reset).
 */
export async function authenticate(db: Db, token: string | undefined, now = new Date()): Promise<Actor> {
  if (!token || !TOKEN_SHAPE.test(token)) throw AppError.unauthorized();
  const session = await db.session.findUnique({
    where: { tokenHash: sha256(token) },
    include: { user: { include: sessionUserInclude } },
  });
  if (!session) throw AppError.unauthorized();
  if (session.endedAt) {
    throw session.endedReason === 'replaced' ? AppError.invalidToken() : AppError.unauthorized();
  }
  if (session.expiresAt <= now || session.user.deletedAt) throw AppError.unauthorized();

  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.session.update({ where: { id: session.id }, data: { lastSeenAt: now } });
  }
  const { user, ...rest } = session;
  return { user, tenant: user.tenant, permissions: effectivePermissions(user, now), session: rest };
}

/** Logout: the session ends on the server; the token is useless from now on. */
export async function endSession(db: Db, sessionId: number, reason: 'logout' | 'user_deleted' = 'logout') {
  await db.session.updateMany({
    where: { id: sessionId, endedAt: null },
    data: { endedAt: new Date(), endedReason: reason },
  });
}

/** Ends every active session of a user (password reset, deletion). */
export async function endUserSessions(
  db: Db | Prisma.TransactionClient,
  userId: number,
  reason: 'password_reset' | 'user_deleted',
) {
  await db.session.updateMany({
    where: { userId, endedAt: null },
    data: { endedAt: new Date(), endedReason: reason },
  });
}
