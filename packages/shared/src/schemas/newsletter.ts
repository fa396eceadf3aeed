import { z } from 'zod';
import { listQuery, pageOf } from './list-query.ts';

/** GET /subscribers: the newsletter list (each address once). */
export const SubscriberView = z.object({
  id: z.number().int(),
  email: z.string(),
  /** ISO 8601; the page shows it as YYYY-MM-DD h:mm:ss. */
  created_at: z.string(),
});
export type SubscriberView = z.infer<typeof SubscriberView>;
export const SubscriberList = z.array(SubscriberView);

/**
 * GET /subscribers (docs/lists-at-scale.md): search (in the address), sort and order; with `page` or
 * `pageSize` one page (`SubscriberPage`), without them every matching subscriber (the export).
 */
export const NEWSLETTER_SORTS = ['created_at', 'email'] as const;
export const NewsletterListQuery = listQuery(NEWSLETTER_SORTS, { sort: 'created_at', order: 'desc' });
export type NewsletterListQuery = z.input<typeof NewsletterListQuery>;
export type NewsletterListQueryInput = z.output<typeof NewsletterListQuery>;
export const SubscriberPage = pageOf(SubscriberView);
export type SubscriberPage = z.infer<typeof SubscriberPage>;

/** GET /api/newsletter/unsubscribe?token=...: the signed link in marketing mail. */
export const UnsubscribeQuery = z.strictObject({ token: z.string().min(1).max(1000) });
