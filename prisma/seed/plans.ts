import type { Permission } from '@helix/shared';

/**
 * The plan catalogue. Ids are the specification's product ids: 7/9 individual, 8/10 educator,
 * 13/14 enterprise (monthly/yearly). README.md ("Plan catalogue") shows the same table.
 *
 * Prices are dollars: a plan costs firstTierPrice for its first userLimit users, plus `price` for each
 * user beyond that (only plans with dynamicQuantity let the buyer pick more users). A yearly price is
 * 12 x the monthly price less the 15% yearly discount. viewLimit is per billing period (0 = unlimited),
 * so a yearly plan has 12 x the monthly views. additionalViewsPrice is cents per block of 1,000 views.
 */
const TRIAL_DAYS = 30;
const YEARLY_DISCOUNT = 0.15;

const yearly = (monthly: number): number => Math.round(monthly * 12 * (1 - YEARLY_DISCOUNT) * 100) / 100;
const dollars = (amount: number): string => amount.toFixed(2);

interface Family {
  family: 'individual' | 'educator' | 'enterprise';
  title: string;
  ids: { monthly: number; yearly: number };
  description: string;
  firstTierPrice: number;
  pricePerExtraUser: number;
  userLimit: number;
  dynamicQuantity: boolean;
  monthlyViewLimit: number;
  additionalViewsPrice: number;
  hasAdmin: boolean;
  adminAccCount: number;
  flags: {
    screenRecord: boolean;
    modelEmbed: boolean;
    transparentBackgroundWebEmbeding: boolean;
    unlimitedViews: boolean;
    fasttrackCustomerSupport: boolean;
    customBranding: boolean;
    /** Live lessons (issue 32): turns on Lesson.lead. */
    liveLessons: boolean;
  };
  permissions: readonly Permission[];
}

const INDIVIDUAL_PERMISSIONS: readonly Permission[] = [
  'Model.listing.view',
  'Model.view',
  'Model.embed',
  'Profile.view',
  'Profile.update',
  'Subscription.listing.view',
];

const EDUCATOR_PERMISSIONS: readonly Permission[] = [
  ...INDIVIDUAL_PERMISSIONS,
  'Screen.record',
  'Brand.update',
  'User.invite',
  'User.listing.view',
  'User.detail.view',
  'User.update',
  'User.delete',
];

const ENTERPRISE_PERMISSIONS: readonly Permission[] = [
  ...EDUCATOR_PERMISSIONS,
  'Model.unlimited_views',
  'Background.transparent',
  'Customersupport',
];

const PLAN_FAMILIES: readonly Family[] = [
  {
    family: 'individual',
    title: 'Individual',
    ids: { monthly: 7, yearly: 9 },
    description: 'For one person: the full model library, sharing and embedding.',
    firstTierPrice: 12,
    pricePerExtraUser: 12,
    userLimit: 1,
    dynamicQuantity: false,
    monthlyViewLimit: 1_000,
    additionalViewsPrice: 500,
    hasAdmin: false,
    adminAccCount: 0,
    flags: {
      screenRecord: false,
      modelEmbed: true,
      transparentBackgroundWebEmbeding: false,
      unlimitedViews: false,
      fasttrackCustomerSupport: false,
      customBranding: false,
      liveLessons: false,
    },
    permissions: INDIVIDUAL_PERMISSIONS,
  },
  {
    family: 'educator',
    title: 'Educator',
    ids: { monthly: 8, yearly: 10 },
    description: 'For a class or a department: invite users, record the screen, brand the portal.',
    firstTierPrice: 99,
    pricePerExtraUser: 9,
    userLimit: 10,
    dynamicQuantity: true,
    monthlyViewLimit: 10_000,
    additionalViewsPrice: 400,
    hasAdmin: true,
    adminAccCount: 1,
    flags: {
      screenRecord: true,
      modelEmbed: true,
      transparentBackgroundWebEmbeding: false,
      unlimitedViews: false,
      fasttrackCustomerSupport: false,
      customBranding: true,
      liveLessons: true,
    },
    permissions: EDUCATOR_PERMISSIONS,
  },
  {
    family: 'enterprise',
    title: 'Enterprise',
    ids: { monthly: 13, yearly: 14 },
    description: 'For institutions: unlimited views, transparent embeds and fast-track support.',
    firstTierPrice: 399,
    pricePerExtraUser: 7,
    userLimit: 50,
    dynamicQuantity: true,
    monthlyViewLimit: 0,
    additionalViewsPrice: 0,
    hasAdmin: true,
    adminAccCount: 2,
    flags: {
      screenRecord: true,
      modelEmbed: true,
      transparentBackgroundWebEmbeding: true,
      unlimitedViews: true,
      fasttrackCustomerSupport: true,
      customBranding: true,
      liveLessons: true,
    },
    permissions: ENTERPRISE_PERMISSIONS,
  },
];

export interface PlanSeed {
  id: number;
  name: string;
  description: string;
  family: Family['family'];
  planType: 'MONTHLY' | 'YEARLY';
  displayPlantype: 'MONTHLY' | 'YEARLY';
  billedAnnually: boolean;
  price: string;
  firstTierPrice: string;
  userLimit: number;
  dynamicQuantity: boolean;
  viewLimit: number;
  additionalViewsPrice: number;
  trialDays: number;
  status: boolean;
  hasAdmin: boolean;
  adminAccCount: number;
  screenRecord: boolean;
  modelEmbed: boolean;
  transparentBackgroundWebEmbeding: boolean;
  unlimitedViews: boolean;
  fasttrackCustomerSupport: boolean;
  customBranding: boolean;
  liveLessons: boolean;
  sortOrder: number;
  permissions: readonly Permission[];
}

export const PLANS: readonly PlanSeed[] = PLAN_FAMILIES.flatMap((f, index) =>
  (['MONTHLY', 'YEARLY'] as const).map((planType): PlanSeed => {
    const isYearly = planType === 'YEARLY';
    return {
      id: isYearly ? f.ids.yearly : f.ids.monthly,
      name: `${f.title} ${isYearly ? 'Yearly' : 'Monthly'}`,
      description: f.description,
      family: f.family,
      planType,
      displayPlantype: planType,
      billedAnnually: isYearly,
      price: dollars(isYearly ? yearly(f.pricePerExtraUser) : f.pricePerExtraUser),
      firstTierPrice: dollars(isYearly ? yearly(f.firstTierPrice) : f.firstTierPrice),
      userLimit: f.userLimit,
      dynamicQuantity: f.dynamicQuantity,
      viewLimit: isYearly ? f.monthlyViewLimit * 12 : f.monthlyViewLimit,
      additionalViewsPrice: f.additionalViewsPrice,
      trialDays: TRIAL_DAYS,
      status: true,
      hasAdmin: f.hasAdmin,
      adminAccCount: f.adminAccCount,
      ...f.flags,
      sortOrder: index * 2 + (isYearly ? 2 : 1),
      permissions: f.permissions,
    };
  }),
);
