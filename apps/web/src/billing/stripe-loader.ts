// The pure entry never injects js.stripe.com by itself (the default entry does, on import), so the
// configured script, a local stand-in in development and tests, is the one that defines window.Stripe.
import { loadStripe } from '@stripe/stripe-js/pure';
// Types only (erased): the default entry's typings also declare window.Stripe.
import type { Stripe } from '@stripe/stripe-js';

export interface StripeSettings {
  publishableKey: string;
  /** Where Stripe.js comes from: https://js.stripe.com/... in production, stripe-local's /v3/ otherwise. */
  stripeJsUrl: string;
}

let loading: Promise<Stripe> | null = null;

function injectScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const existing = document.querySelector<HTMLScriptElement>(`script[data-stripe-js="${CSS.escape(src)}"]`);
    if (existing && window.Stripe) return resolve();
    const script = existing ?? document.createElement('script');
    script.addEventListener('load', () => resolve(), { once: true });
    script.addEventListener('error', () => reject(new Error('Stripe.js could not be loaded.')), {
      once: true,
    });
    if (!existing) {
      script.src = src;
      script.async = true;
      script.dataset.stripeJs = src;
      document.head.appendChild(script);
    }
  });
}

/**
 * Stripe.js, loaded once: the configured script first, then `loadStripe`, which uses the window.Stripe
 * that script defined. A failure is not cached, so a later attempt (the form reopened) tries again.
 */
export function getStripe(settings: StripeSettings): Promise<Stripe> {
  loading ??= (async () => {
    if (!window.Stripe) await injectScript(settings.stripeJsUrl);
    const stripe = await loadStripe(settings.publishableKey);
    if (!stripe) throw new Error('Stripe.js could not be loaded.');
    return stripe;
  })().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
