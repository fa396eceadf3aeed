/**
 * Fast-track support (issue 10): the response targets the product promises. A request is priority
 * when the tenant's plan in force has fasttrackCustomerSupport and the user's effective permissions
 * include Customersupport; every other request gets the standard target. Business hours: Monday to
 * Friday, 9:00 to 17:00 (8 hours a day), so 2 business days are 16 business hours.
 */
export const SUPPORT_TARGETS = {
  priority: { hours: 4, label: '4 business hours' },
  standard: { hours: 16, label: '2 business days' },
} as const;

export type SupportTier = keyof typeof SUPPORT_TARGETS;

/** The target's words for a stored request (its targetHours), e.g. in the admin list and e-mails. */
export function supportTargetLabel(hours: number): string {
  const tier = Object.values(SUPPORT_TARGETS).find((t) => t.hours === hours);
  if (tier) return tier.label;
  return hours % 8 === 0 ? `${hours / 8} business days` : `${hours} business hours`;
}

/** Per user: at most this many requests per window (a support address is not a chat). */
export const SUPPORT_RATE_LIMIT = { limit: 5, windowSeconds: 60 * 60 } as const;

export const SUPPORT_STATUSES = ['open', 'answered', 'closed'] as const;
export type SupportStatus = (typeof SUPPORT_STATUSES)[number];
