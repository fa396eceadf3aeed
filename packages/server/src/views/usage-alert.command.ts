import type { Transporter } from 'nodemailer';
import type { Redis } from 'ioredis';
import type { UsageAlertPayload } from '@helix/shared';
import type { Db } from '../db.ts';
import { renderLayout, type RenderedMail } from '../mail/layout.ts';
import { viewAllowance } from './allowance.ts';
import { periodViewCount } from './record-view.ts';

export interface UsageAlertDeps {
  db: Db;
  redis: Redis;
  /** REDIS_PREFIX (the period count adds what Redis has not flushed yet). */
  prefix: string;
  transport: Transporter;
  from: string;
  publicUrl: string;
  viewGracePercent: number;
}

/** A claim older than this is taken to be a crashed sender's: another attempt may send. */
const CLAIM_LEASE_MS = 5 * 60_000;

const figure = (n: number) => n.toLocaleString('en-US');
const day = (d: Date) => d.toUTCString().slice(0, 16);

export function renderUsageAlertMail(vars: {
  name: string;
  threshold: 80 | 100;
  used: number;
  limit: number;
  viewLimit: number;
  additionalViews: number;
  grace: number;
  refuses: boolean;
  periodEnd: Date;
  buyLink: string;
}): RenderedMail {
  const allowance =
    vars.additionalViews > 0
      ? `${figure(vars.limit)} (${figure(vars.viewLimit)} in your plan and ${figure(vars.additionalViews)} purchased)`
      : figure(vars.limit);
  const after = vars.refuses
    ? `Past your allowance, embeds keep working for ${figure(vars.grace)} more views; after that they show a notice that the view limit is reached until more views are added or the period ends.`
    : 'Views past your allowance keep being served and are reported as additional views.';
  const lines = [
    `Hello ${vars.name},`,
    vars.threshold === 100
      ? `Your school has used all of its views for this billing period: ${figure(vars.used)} of ${allowance}.`
      : `Your school has used ${vars.threshold}% of its views for this billing period: ${figure(vars.used)} of ${allowance}.`,
    `The count starts again on ${day(vars.periodEnd)}, when the next billing period begins.`,
    after,
    'To keep every lesson running, you can buy more views in blocks of 1,000.',
  ];
  return renderLayout(
    vars.threshold === 100
      ? 'Your Helix views for this period are used up'
      : `You have used ${vars.threshold}% of your Helix views`,
    lines,
    { label: 'Buy views', link: vars.buyLink },
  );
}

/**
 * usage-alert: the 80% / 100% e-mail of one tenant's billing period, once. The UsageAlert row
 * (tenant, period start, threshold) is claimed with a lease before SMTP and marked sent after the
 * server accepted the mail: a retry, a duplicate job (the Redis gate lost in a restart) or a
 * concurrent run finds it claimed or sent and does nothing. The figures are read when sending.
 */
export async function sendUsageAlert(deps: UsageAlertDeps, payload: UsageAlertPayload) {
  const key = {
    tenantId: payload.tenantId,
    periodStart: new Date(payload.periodStart),
    threshold: payload.threshold,
  };
  // ON CONFLICT DO NOTHING: concurrent runs of one alert both get past this (an upsert races).
  await deps.db.usageAlert.createMany({ data: [key], skipDuplicates: true });
  const now = new Date();
  const claimed = await deps.db.usageAlert.updateMany({
    where: {
      ...key,
      sentAt: null,
      OR: [{ claimedAt: null }, { claimedAt: { lt: new Date(now.getTime() - CLAIM_LEASE_MS) } }],
    },
    data: { claimedAt: now },
  });
  if (claimed.count === 0) return { sent: false, reason: 'already sent' };
  try {
    const tenant = await deps.db.tenant.findUnique({
      where: { id: payload.tenantId },
      include: {
        users: { where: { isOwner: true, deletedAt: null }, take: 1 },
        subscription: { include: { plan: true } },
        branding: true,
      },
    });
    const owner = tenant?.users[0];
    if (!tenant || !owner) {
      await deps.db.usageAlert.updateMany({ where: key, data: { sentAt: now } });
      return { sent: false, reason: 'no owner' };
    }
    const allowance = viewAllowance(tenant, deps.viewGracePercent);
    const period = {
      start: key.periodStart,
      end: new Date(payload.periodEnd),
      firstDay: payload.periodStart.slice(0, 10),
      endDay: payload.periodEnd.slice(0, 10),
    };
    const used = await periodViewCount(deps, tenant.id, period);
    const mail = renderUsageAlertMail({
      name: owner.name,
      threshold: payload.threshold,
      used,
      limit: allowance.limit,
      viewLimit: allowance.viewLimit,
      additionalViews: allowance.additionalViews,
      grace: allowance.grace,
      refuses: allowance.refuseOverLimit,
      periodEnd: period.end,
      buyLink: new URL('/user/home?buy-views=1', deps.publicUrl).toString(),
    });
    await deps.transport.sendMail({ from: deps.from, to: owner.email, ...mail });
    await deps.db.usageAlert.updateMany({ where: key, data: { sentAt: new Date() } });
    return { sent: true };
  } catch (error) {
    // Released: the queue's retry may claim it again at once.
    await deps.db.usageAlert.updateMany({ where: { ...key, sentAt: null }, data: { claimedAt: null } });
    throw error;
  }
}
