import type { BillingEmailPayload } from '@helix/shared';
import { MSG } from '@helix/shared';
import type { Db } from '../db.ts';
import { escapeHtml, type RenderedMail } from '../mail/templates.ts';

/**
 * The billing e-mails (beside mail/templates.ts): payment failed and trial ending, to the tenant's
 * owner, with a link to the subscription page. Rendered by the worker's billing-email job.
 */
export function renderBillingMail(
  kind: BillingEmailPayload['kind'],
  vars: { name: string; link: string; planName: string; trialEnd?: Date | null },
): RenderedMail {
  const lines =
    kind === 'payment-failed'
      ? [
          `Hello ${vars.name},`,
          MSG.paymentFailedBanner,
          `Your ${vars.planName} plan stays available while the payment is retried. Update your card on the subscription page so it keeps working.`,
        ]
      : [
          `Hello ${vars.name},`,
          `Your free trial of ${vars.planName} ends${vars.trialEnd ? ` on ${vars.trialEnd.toUTCString().slice(0, 16)}` : ' soon'}.`,
          'Your card will then be charged for the plan. To change or cancel it, open the subscription page.',
        ];
  const subject = kind === 'payment-failed' ? 'Your Helix payment has failed' : 'Your Helix trial ends soon';
  const body = lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n');
  const button = `<p><a href="${escapeHtml(vars.link)}" style="display:inline-block;padding:10px 18px;background:#5f51fb;color:#ffffff;text-decoration:none;border-radius:4px">Open the subscription page</a></p>`;
  return {
    subject,
    text: `${lines.join('\n\n')}\n\n${vars.link}\n`,
    html: `<!doctype html>\n<html><body style="font-family:Arial,Helvetica,sans-serif;color:#222222">\n${body}\n${button}\n</body></html>`,
  };
}

/** The recipient and the rendered mail of one billing-email job, or null when there is no owner. */
export async function billingMailFor(
  db: Db,
  publicUrl: string,
  payload: BillingEmailPayload,
): Promise<{ to: string; mail: RenderedMail } | null> {
  const tenant = await db.tenant.findUnique({
    where: { id: payload.tenantId },
    include: {
      users: { where: { isOwner: true, deletedAt: null }, take: 1 },
      subscription: { include: { plan: true } },
    },
  });
  const owner = tenant?.users[0];
  if (!tenant || !owner) return null;
  const link = new URL('/user/settings/subscription', publicUrl).toString();
  return {
    to: owner.email,
    mail: renderBillingMail(payload.kind, {
      name: owner.name,
      link,
      planName: tenant.subscription?.plan?.name ?? 'Helix',
      trialEnd: tenant.subscription?.trialEnd,
    }),
  };
}
