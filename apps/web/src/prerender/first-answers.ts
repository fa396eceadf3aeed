/*
 * A drawn page's first answers, known synchronously: the server drew the page with them
 * (src/prerender/home-page.server.tsx, seeded for its render only) and the page carries them for the
 * app that takes it over (src/main.tsx seeds them from the page's data). The page's component starts
 * with the answer and does not ask for it again. No imports: src/main.tsx uses this.
 * The model grid has its own (src/models/listing-seed.ts).
 */

/** The answers a drawn page may carry, by the call they stand for. */
export const FIRST_ANSWER = {
  /** GET /guest/subscription/list (the plan list of /choose-subscription). */
  guestPlans: 'guest-plans',
  /** GET /user/all for a tenant owner (the users list). */
  tenantUsers: 'tenant-users',
  /** GET /subscriptionplan/all, GET /subscription/summary and GET /views/summary (the subscription page). */
  tenantPlans: 'tenant-plans',
  subscriptionSummary: 'subscription-summary',
  viewsSummary: 'views-summary',
} as const;
export type FirstAnswerName = (typeof FIRST_ANSWER)[keyof typeof FIRST_ANSWER];

const seeded = new Map<FirstAnswerName, unknown>();

/** Seeds `name`'s first answer; the function returned forgets it. */
export function seedFirstAnswer(name: FirstAnswerName, answer: unknown): () => void {
  seeded.set(name, answer);
  return () => {
    seeded.delete(name);
  };
}

/** The seeded answer, without taking it (a component's first render; React may render it twice). */
export const peekFirstAnswer = (name: FirstAnswerName): unknown => seeded.get(name);

/** The seeded answer, once (then the page asks the server as usual). */
export function takeFirstAnswer(name: FirstAnswerName): unknown {
  const answer = seeded.get(name);
  seeded.delete(name);
  return answer;
}
