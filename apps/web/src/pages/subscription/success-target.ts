import { normalizePath } from '../../routing/guard';

/**
 * Where a payment return page goes on after refreshing the user. The specification says "the payment
 * provider's success page"; we are that page, so: after cancelling, back to the plan page; after any
 * purchase (subscription, plan change, views), home, which the guard turns into the model grid.
 */
export function successTarget(pathname: string): string {
  const path = normalizePath(pathname);
  if (path === '/success/unsubscribe') return '/user/settings/subscription';
  return '/';
}

/** The success pages wait 5 seconds before refreshing the user (accounts 9). */
export const SUCCESS_WAIT_MS = 5000;
