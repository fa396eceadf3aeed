import { MSG } from '@helix/shared';
import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';
import { verifyUnsubscribeToken } from './unsubscribe-token.ts';

/** Checks an unsubscribe link without changing anything (the confirmation page). */
export function addressOf(secret: string, token: string): string {
  const email = verifyUnsubscribeToken(secret, token);
  if (!email) throw AppError.badRequest(MSG.unsubscribeLinkInvalid);
  return email;
}

/** Removes the address from the newsletter list; a second click is the same success. */
export async function unsubscribe(db: Db, secret: string, token: string): Promise<{ email: string }> {
  const email = addressOf(secret, token);
  await db.newsletterSubscriber.deleteMany({ where: { email } });
  return { email };
}
