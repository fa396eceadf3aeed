import type { SubscriberView } from '@helix/shared/schemas/newsletter';
import type { Db } from '../db.ts';
import type { Actor } from '../sessions/session.service.ts';
import { authorize } from './newsletter.policy.ts';

/** GET /subscribers: every address once (the e-mail is unique), newest first. */
export async function listSubscribers(db: Db, actor: Actor): Promise<SubscriberView[]> {
  authorize(actor, 'list');
  const rows = await db.newsletterSubscriber.findMany({ orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
  return rows.map((row) => ({ id: row.id, email: row.email, created_at: row.createdAt.toISOString() }));
}
