import type { LtiPlatform, Tenant, TenantSubscription } from '../db.ts';

/**
 * Where the OIDC login initiation may send the browser at once (docs/lti.md, "Login initiation and
 * redirects"). A platform's login URL is whatever its school registered, and any free sign-up can
 * register one: a 302 to it from Helix's own address would make Helix a redirector to any site. So the
 * login answers 302 only to
 * - the sign-in hosts of the hosted learning platforms (their issuer and login host differ: Canvas's
 *   issuer is https://canvas.instructure.com, its login https://sso.canvaslms.com), which cannot be
 *   someone's phishing page, or
 * - a platform registered by a school that pays (an active subscription with a working payment, or
 *   the platform tenant): a school known to billing, answerable for its registration;
 * and otherwise a page naming the host the sign-in continues at, with a button (one click more for a
 * school on trial with its own Moodle; no automatic hop from Helix's address to an unknown site).
 */

/** The hosted platforms' sign-in domains (a host equal to one, or under it). */
export const HOSTED_LMS_LOGIN_DOMAINS = [
  'canvaslms.com', // Canvas: sso.canvaslms.com, sso.beta.canvaslms.com, sso.test.canvaslms.com
  'instructure.com', // Canvas: canvas.instructure.com and each school's <name>.instructure.com
  'blackboard.com', // Blackboard Learn: developer.blackboard.com (the gateway of every Learn site)
  'schoology.com', // Schoology: lti-service.svc.schoology.com
  'brightspace.com', // D2L Brightspace hosted sites
  'moodlecloud.com', // MoodleCloud sites
] as const;

const hostOf = (url: string): string | null => {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
};

export function isHostedLmsLogin(authLoginUrl: string): boolean {
  const host = hostOf(authLoginUrl);
  return host !== null && HOSTED_LMS_LOGIN_DOMAINS.some((d) => host === d || host.endsWith(`.${d}`));
}

/** A school billing knows: the platform tenant, or an active subscription with a working payment. */
export const isPayingSchool = (
  tenant: Pick<Tenant, 'isPlatform'> & {
    subscription: Pick<TenantSubscription, 'status' | 'activePayment'> | null;
  },
): boolean =>
  tenant.isPlatform || (tenant.subscription?.status === 'active' && tenant.subscription.activePayment);

/** Whether the login may answer 302 to the platform's login URL (else: the page with a button). */
export function redirectsAtOnce(
  platform: Pick<LtiPlatform, 'authLoginUrl'>,
  tenant: Parameters<typeof isPayingSchool>[0],
): boolean {
  return isHostedLmsLogin(platform.authLoginUrl) || isPayingSchool(tenant);
}
