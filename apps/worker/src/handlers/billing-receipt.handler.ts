import { sendInvoiceReceipt, type BillingMailDeps } from '@helix/server/billing/billing-receipt.command';
import type { JobHandler } from '../registry.ts';

/** billing-receipt: the receipt of one paid invoice, once (retried by the queue on an SMTP failure). */
export function billingReceiptHandler(deps: BillingMailDeps): JobHandler<'billing-receipt'> {
  return (payload) => sendInvoiceReceipt(deps, payload);
}
