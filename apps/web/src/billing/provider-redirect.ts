/**
 * Leaving for the payment provider and coming back. Kept apart from the plan wizard so the subscription
 * banner of every signed-in page does not download the wizard (its forms, radios and dates).
 */

/** An absolute URL on this portal for the provider to send the browser back to. */
export const portalUrl = (path: string): string => new URL(path, window.location.origin).toString();

/** Sends the browser to a provider page (Checkout, billing portal). */
export const goToProvider = (url: string): void => window.location.assign(url);
