import type { Transporter } from 'nodemailer';
import { billingMailFor } from '@helix/server/billing/billing-mail';
import type { BillingDeps } from '@helix/server/billing/tenant-billing';
import type { JobHandler } from '../registry.ts';

/** billing-email: payment failed / trial ending, to the tenant's owner (retried by the queue on failure). */
export function billingEmailHandler(deps: {
  transport: Transporter;
  from: string;
  billing: Pick<BillingDeps, 'db' | 'config'>;
}): JobHandler<'billing-email'> {
  return async (payload) => {
    const found = await billingMailFor(deps.billing.db, deps.billing.config.PUBLIC_URL, payload);
    if (!found) return { sent: false };
    await deps.transport.sendMail({ from: deps.from, to: found.to, ...found.mail });
    return { sent: true };
  };
}
