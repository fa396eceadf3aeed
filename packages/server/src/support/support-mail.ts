import { supportTargetLabel } from '@helix/shared/support';
import { renderLayout, type RenderedMail } from '../mail/layout.ts';

/** What the two support e-mails (in the one mail layout, mail/layout.ts) show about a request. */
export interface SupportMailFacts {
  id: number;
  subject: string;
  message: string;
  priority: boolean;
  targetHours: number;
  /** The plan when it was sent, and now (they differ after a plan change). */
  planName: string | null;
  currentPlanName: string | null;
  tenant: { id: number; name: string; domainPrefix: string };
  user: { id: number; name: string; email: string };
  createdAt: Date;
}

/**
 * To the support address: `[Priority]` and the target first in the subject for fast-track requests (so
 * a mail client's filters and sort put them on top), the tenant, plan and user in the body.
 */
export function supportTeamMail(r: SupportMailFacts, adminUrl: string): RenderedMail {
  const target = supportTargetLabel(r.targetHours);
  const subject = r.priority
    ? `[Priority] Support request #${r.id} (answer within ${target}): ${r.subject}`
    : `Support request #${r.id} (answer within ${target}): ${r.subject}`;
  const plan =
    r.currentPlanName === r.planName
      ? (r.planName ?? 'none')
      : `${r.planName ?? 'none'} when sent (now ${r.currentPlanName ?? 'none'})`;
  const lines = [
    `${r.priority ? 'Fast-track' : 'Standard'} support request #${r.id}, sent ${r.createdAt.toISOString()}.`,
    `Response target: ${target}.`,
    `Tenant: ${r.tenant.name} (${r.tenant.domainPrefix}, id ${r.tenant.id})`,
    `Plan: ${plan}`,
    `User: ${r.user.name} <${r.user.email}> (id ${r.user.id})`,
    `Subject: ${r.subject}`,
  ];
  return renderLayout(subject, [...lines, { quote: r.message }], { label: 'All requests', link: adminUrl });
}

/** The confirmation copy to the user who sent it. */
export function supportConfirmationMail(r: SupportMailFacts): RenderedMail {
  const target = supportTargetLabel(r.targetHours);
  const lines = [
    `Hello ${r.user.name},`,
    `We received your support request #${r.id} "${r.subject}". We aim to answer within ${target}.`,
    'This is a copy of what you sent:',
  ];
  return renderLayout(`We received your support request #${r.id}: ${r.subject}`, [
    ...lines,
    { quote: r.message },
  ]);
}
