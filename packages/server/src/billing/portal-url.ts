import { AppError } from '../errors.ts';

export const URL_NOT_ALLOWED = 'This address is not on this portal.';

/**
 * A return, success or cancel URL for Stripe: a path is taken on the portal (PUBLIC_URL); an absolute
 * URL must have the portal's own origin. Anything else (another host, another scheme, credentials in
 * the URL) is a 400 naming the field: no open redirect through Stripe.
 */
export function portalUrl(publicUrl: string, value: string, field: string): string {
  const origin = new URL(publicUrl).origin;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    throw AppError.field(field, URL_NOT_ALLOWED, 400);
  }
  if (url.origin !== origin || url.username || url.password)
    throw AppError.field(field, URL_NOT_ALLOWED, 400);
  // Stripe fills in {CHECKOUT_SESSION_ID}: keep the braces it looks for.
  return url.toString().replace(/%7BCHECKOUT_SESSION_ID%7D/g, '{CHECKOUT_SESSION_ID}');
}
