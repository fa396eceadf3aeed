import type { Plan } from './plan-display';

/** Test data: catalogue plans as the API presents them (prisma/seed/plans.ts figures). */
export const aPlan = (over: Partial<Plan> = {}): Plan => ({
  id: 8,
  name: 'Educator Monthly',
  description: 'For a class.',
  family: 'educator',
  subscriptionLogo: null,
  price: 9,
  firstTierPrice: 99,
  userLimit: 10,
  dynamicQuantity: 'true',
  planType: 'MONTHLY',
  displayPlantype: 'MONTHLY',
  billedAnnually: false,
  status: true,
  hasAdmin: true,
  adminAccCount: 1,
  viewLimit: 10_000,
  additionalViewsPrice: 400,
  trialDays: 30,
  screenRecord: true,
  modelEmbed: true,
  transparentBackgroundWebEmbeding: false,
  unlimitedViews: false,
  fasttrackCustomerSupport: false,
  customBranding: true,
  isSubscribed: 0,
  permissions: [],
  ...over,
});

export const INDIVIDUAL_MONTHLY = aPlan({
  id: 7,
  name: 'Individual Monthly',
  family: 'individual',
  price: 12,
  firstTierPrice: 12,
  userLimit: 1,
  dynamicQuantity: 'false',
  viewLimit: 1000,
  additionalViewsPrice: 500,
});

export const ENTERPRISE_YEARLY = aPlan({
  id: 14,
  name: 'Enterprise Yearly',
  family: 'enterprise',
  price: 71.4,
  firstTierPrice: 4069.8,
  userLimit: 50,
  planType: 'YEARLY',
  displayPlantype: 'YEARLY',
  billedAnnually: true,
  viewLimit: 0,
  additionalViewsPrice: 0,
});
