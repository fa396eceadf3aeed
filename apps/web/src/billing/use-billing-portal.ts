import { useState } from 'react';
import { subscriptionDetail } from '../api/billing.api';
import { goToProvider, portalUrl } from './provider-redirect';

/**
 * Opening the provider's billing portal (card, invoices, renewal), coming back to this page: `open`
 * asks the server for the portal's address and goes there; `busy` until then (a second click waits).
 * A refusal is the client's toast.
 */
export function useBillingPortal(): { busy: boolean; open(): void } {
  const [busy, setBusy] = useState(false);
  const open = () => {
    if (busy) return;
    setBusy(true);
    subscriptionDetail({ returnUrl: portalUrl(window.location.pathname) })
      .then(goToProvider)
      .catch(() => {
        // The client has shown the server's message.
      })
      .finally(() => setBusy(false));
  };
  return { busy, open };
}
