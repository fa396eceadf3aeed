import type { Db } from '../db.ts';
import { endSession, type Actor } from '../sessions/session.service.ts';

/** Logout ends the session on the server: the token answers 401 from now on. */
export async function logout(db: Db, actor: Actor): Promise<void> {
  await endSession(db, actor.session.id, 'logout');
}
