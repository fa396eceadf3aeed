import type {
  NewsletterListQueryInput,
  SubscriberPage,
  SubscriberView,
} from '@helix/shared/schemas/newsletter';
import type { Db, Prisma } from '../db.ts';
import { likeLiteral } from '../models/list-models.query.ts';
import type { Actor } from '../sessions/session.service.ts';
import { authorize } from './newsletter.policy.ts';

type Row = { id: number; email: string; createdAt: Date };

const present = (row: Row): SubscriberView => ({
  id: row.id,
  email: row.email,
  created_at: row.createdAt.toISOString(),
});

/** The search (in the address, trigram index) and the order (ties by id) of the newsletter list. */
function shapeOf(q: NewsletterListQueryInput) {
  const where: Prisma.NewsletterSubscriberWhereInput = q.search
    ? { email: { contains: likeLiteral(q.search), mode: 'insensitive' } }
    : {};
  const orderBy: Prisma.NewsletterSubscriberOrderByWithRelationInput[] = [
    q.sort === 'email' ? { email: q.order } : { createdAt: q.order },
    { id: q.order },
  ];
  return { where, orderBy };
}

/** GET /subscribers without a page: every matching address once (the e-mail is unique), for the export. */
export async function listSubscribers(
  db: Db,
  actor: Actor,
  q: NewsletterListQueryInput,
): Promise<SubscriberView[]> {
  authorize(actor, 'list');
  const { where, orderBy } = shapeOf(q);
  const rows = await db.newsletterSubscriber.findMany({
    where,
    orderBy,
    select: { id: true, email: true, createdAt: true },
  });
  return rows.map(present);
}

/** GET /subscribers?page=…: one page of the matching addresses and how many match in all. */
export async function subscriberPage(
  db: Db,
  actor: Actor,
  q: NewsletterListQueryInput,
): Promise<SubscriberPage> {
  authorize(actor, 'list');
  const { where, orderBy } = shapeOf(q);
  const [rows, total] = await Promise.all([
    db.newsletterSubscriber.findMany({
      where,
      orderBy,
      skip: (q.page - 1) * q.pageSize,
      take: q.pageSize,
      select: { id: true, email: true, createdAt: true },
    }),
    db.newsletterSubscriber.count({ where }),
  ]);
  return { rows: rows.map(present), total, page: q.page, pageSize: q.pageSize };
}
