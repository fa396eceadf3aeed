import { sendActionRequiredMail, type BillingMailDeps } from '@helix/server/billing/billing-receipt.command';
import type { JobHandler } from '../registry.ts';

/** billing-action-required: "please confirm your payment" with the invoice's hosted page, if still due. */
export function billingActionRequiredHandler(deps: BillingMailDeps): JobHandler<'billing-action-required'> {
  return (payload) => sendActionRequiredMail(deps, payload);
}
