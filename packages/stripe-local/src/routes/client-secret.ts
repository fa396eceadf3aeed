import { invalidRequest, resourceMissing } from '../core/errors.ts';
import type { KeyMode } from '../core/http.ts';

/**
 * With a publishable key (Stripe.js), an intent is reachable only with its client secret, as on Stripe;
 * a wrong secret answers like a missing intent.
 */
export function checkClientSecret(
  mode: KeyMode,
  intent: { id: string; clientSecret: string },
  given: string | undefined,
  kind: string,
): void {
  if (mode === 'secret') return;
  if (!given)
    throw invalidRequest(
      'This API call cannot be made with a publishable API key. Please use a secret API key, or pass client_secret.',
      { code: 'parameter_missing', param: 'client_secret' },
      401,
    );
  if (given !== intent.clientSecret) throw resourceMissing(kind, intent.id, 'client_secret');
}
