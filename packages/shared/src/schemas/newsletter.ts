import { z } from 'zod';

/** GET /subscribers: the newsletter list (each address once). */
export const SubscriberView = z.object({
  id: z.number().int(),
  email: z.string(),
  /** ISO 8601; the page shows it as YYYY-MM-DD h:mm:ss. */
  created_at: z.string(),
});
export type SubscriberView = z.infer<typeof SubscriberView>;
export const SubscriberList = z.array(SubscriberView);

/** GET /api/newsletter/unsubscribe?token=...: the signed link in marketing mail. */
export const UnsubscribeQuery = z.strictObject({ token: z.string().min(1).max(1000) });
