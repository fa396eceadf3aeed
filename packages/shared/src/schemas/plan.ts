import { z } from 'zod';

/** A catalogue plan as the API presents it (GET /guest/subscription/list, /subscriptionplan/all). */
export const PlanView = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  family: z.enum(['individual', 'educator', 'enterprise']),
  subscriptionLogo: z.string().nullable(),
  /** Dollars per extra user. */
  price: z.number(),
  /** Dollars for the first `userLimit` users. */
  firstTierPrice: z.number(),
  userLimit: z.number().int(),
  /** The specification's string flag: 'true' or 'false'. */
  dynamicQuantity: z.enum(['true', 'false']),
  planType: z.enum(['MONTHLY', 'YEARLY']),
  displayPlantype: z.enum(['MONTHLY', 'YEARLY']),
  billedAnnually: z.boolean(),
  status: z.boolean(),
  hasAdmin: z.boolean(),
  adminAccCount: z.number().int(),
  /** 0 means unlimited. */
  viewLimit: z.number().int(),
  /** Cents per block of 1,000 additional views. */
  additionalViewsPrice: z.number().int(),
  trialDays: z.number().int(),
  screenRecord: z.boolean(),
  modelEmbed: z.boolean(),
  transparentBackgroundWebEmbeding: z.boolean(),
  unlimitedViews: z.boolean(),
  fasttrackCustomerSupport: z.boolean(),
  customBranding: z.boolean(),
  /** 1 for the caller's current plan, else 0 (always 0 on the guest list). */
  isSubscribed: z.union([z.literal(0), z.literal(1)]),
  permissions: z.array(z.string()),
});
export type PlanView = z.infer<typeof PlanView>;
