import { planAmountCents } from '@helix/shared/plan-price';
import type { ChangePreviewView, PreviewLineView, UpcomingCharge } from '@helix/shared/schemas/billing';
import type { Plan } from '../db.ts';
import type { Actor } from '../sessions/session.service.ts';
import { planOfSubscription, readBillingAccount, type BillingAccount } from './billing-account.query.ts';
import { authorizeBilling } from './billing.policy.ts';
import { checkSeats } from './change-subscription.command.ts';
import { planPriceId } from './stripe-catalog.command.ts';
import { stripeOf, type Stripe } from './stripe-client.ts';
import { planAndSeats } from './tenant-plan.ts';
import { storedCustomerId, type BillingDeps } from './tenant-billing.ts';

/**
 * What a plan or seat change (or a first subscription) would charge, from Stripe's upcoming-invoice
 * preview (`invoices.createPreview` with the same items, proration and trial end the change would
 * use). When Stripe cannot answer a preview (a Stripe-compatible server without it, a transient
 * error), the same figures are computed from the plans' prices and the period left (logged), so the
 * confirm step always shows an amount.
 */

const intervalOf = (plan: Plan) => (plan.planType === 'YEARLY' ? ('year' as const) : ('month' as const));
const perMonth = (plan: Plan, seats: number) =>
  planAmountCents(plan, seats) / (plan.planType === 'YEARLY' ? 12 : 1);
const now = () => Math.floor(Date.now() / 1000);

const lineOf = (line: Stripe.InvoiceLineItem): PreviewLineView => ({
  description: line.description ?? null,
  amount: line.amount,
  proration: Boolean(
    line.parent?.subscription_item_details?.proration ?? line.parent?.invoice_item_details?.proration,
  ),
  periodStart: line.period?.start ?? null,
  periodEnd: line.period?.end ?? null,
});

/** Cents now, from Stripe's preview of the change. */
async function stripePreview(
  stripe: Stripe,
  account: BillingAccount,
  priceId: string,
  seats: number,
  opts: { trialDays: number | null },
): Promise<{ amountDueNow: number; lines: PreviewLineView[] }> {
  const live = account.live;
  const item = live?.items.data[0];
  const preview = await stripe.invoices.createPreview({
    customer: account.customerId,
    ...(live && item
      ? {
          subscription: live.id,
          subscription_details: {
            items: [{ id: item.id, price: priceId, quantity: seats }],
            proration_behavior: 'always_invoice',
            proration_date: now(),
            ...(live.status === 'trialing' ? { trial_end: 'now' as const } : {}),
          },
        }
      : {
          subscription_details: {
            items: [{ price: priceId, quantity: seats }],
            ...(opts.trialDays ? { trial_end: now() + opts.trialDays * 86_400 } : {}),
          },
        }),
  });
  return { amountDueNow: preview.amount_due, lines: (preview.lines?.data ?? []).map(lineOf) };
}

/** The same figures from our prices: a credit for the unused time and a charge for the time left. */
function estimate(
  live: Stripe.Subscription | null,
  from: { plan: Plan; seats: number } | null,
  to: { plan: Plan; seats: number },
  withTrial: boolean,
): { amountDueNow: number; lines: PreviewLineView[] } {
  const full = planAmountCents(to.plan, to.seats);
  const item = live?.items.data[0];
  const t = now();
  const fullLine = (amount: number): PreviewLineView => ({
    description: `${to.seats} × ${to.plan.name}`,
    amount,
    proration: false,
    periodStart: t,
    periodEnd: null,
  });
  if (!live || !from || !item)
    return { amountDueNow: withTrial ? 0 : full, lines: [fullLine(withTrial ? 0 : full)] };
  if (live.status === 'trialing') return { amountDueNow: full, lines: [fullLine(full)] };
  const start = item.current_period_start;
  const end = item.current_period_end;
  const fraction = end > start ? Math.max(0, Math.min(1, (end - t) / (end - start))) : 0;
  const credit = -Math.round(planAmountCents(from.plan, from.seats) * fraction);
  const credited: PreviewLineView = {
    description: `Unused time on ${from.seats} × ${from.plan.name}`,
    amount: credit,
    proration: true,
    periodStart: t,
    periodEnd: end,
  };
  if (intervalOf(from.plan) !== intervalOf(to.plan)) {
    // A new interval restarts the cycle now: the new plan's whole first period is charged.
    return { amountDueNow: Math.max(0, credit + full), lines: [credited, fullLine(full)] };
  }
  const charge = Math.round(full * fraction);
  return {
    amountDueNow: Math.max(0, credit + charge),
    lines: [
      credited,
      {
        description: `Remaining time on ${to.seats} × ${to.plan.name}`,
        amount: charge,
        proration: true,
        periodStart: t,
        periodEnd: end,
      },
    ],
  };
}

/** The next charge after the change: the trial's end or the period's end, at the new price. */
function nextChargeOf(
  live: Stripe.Subscription | null,
  plan: Plan,
  seats: number,
  withTrial: boolean,
): UpcomingCharge {
  const amount = planAmountCents(plan, seats);
  const days = (n: number) => now() + n * 86_400;
  const periodDays = plan.planType === 'YEARLY' ? 365 : 30;
  let date: number;
  if (!live) date = withTrial ? days(plan.trialDays) : days(periodDays);
  else if (live.status === 'trialing') date = days(periodDays);
  else date = live.items.data[0]?.current_period_end ?? days(periodDays);
  return { date, amount, currency: 'usd' };
}

/** POST /subscription/preview (any user with Subscription.listing.view: nothing changes). */
export async function previewChange(
  deps: BillingDeps,
  actor: Actor,
  input: { planId?: number; quantity?: number },
): Promise<ChangePreviewView> {
  authorizeBilling(actor, 'view');
  const tenantId = actor.tenant.id;
  const stripe = stripeOf(deps);
  const customerId = await storedCustomerId(deps.db, tenantId);
  const account = customerId ? await readBillingAccount(stripe, customerId).catch(() => null) : null;
  const live = account?.live ?? null;
  const stored = await deps.db.tenantSubscription.findUnique({
    where: { tenantId },
    include: { plan: true },
  });
  const fromPlan = live ? ((await planOfSubscription(deps.db, live)) ?? stored?.plan ?? null) : null;
  const fromSeats = live?.items.data[0]?.quantity ?? stored?.userLimit ?? 1;
  const planId = input.planId ?? fromPlan?.id ?? stored?.planId;
  const { plan } = await planAndSeats(deps.db, planId ?? 0, input.quantity);
  const seats = plan.dynamicQuantity
    ? Math.max(plan.userLimit, input.quantity ?? (live ? fromSeats : plan.userLimit))
    : plan.userLimit;
  await checkSeats(deps, tenantId, plan, seats);
  const withTrial = !live && !((stored?.isTrialPassed ?? false) || (account?.trialUsed ?? false));
  const from = live && fromPlan ? { plan: fromPlan, seats: fromSeats } : null;
  let figures: { amountDueNow: number; lines: PreviewLineView[] };
  try {
    if (!account) throw new Error('no Stripe customer yet');
    const priceId = await planPriceId(deps, plan);
    figures = await stripePreview(stripe, account, priceId, seats, {
      trialDays: withTrial ? plan.trialDays : null,
    });
  } catch (err) {
    deps.logger?.info({ err, tenantId }, 'Stripe preview not available: estimated from the plan prices');
    figures = estimate(live, from, { plan, seats }, withTrial);
  }
  const direction = !from
    ? ('new' as const)
    : from.plan.id === plan.id && from.seats === seats
      ? ('same' as const)
      : perMonth(plan, seats) >= perMonth(from.plan, from.seats)
        ? ('upgrade' as const)
        : ('downgrade' as const);
  return {
    planId: plan.id,
    seats,
    interval: intervalOf(plan),
    currency: 'usd',
    amountDueNow: figures.amountDueNow,
    prorationAmount: figures.lines.filter((l) => l.proration).reduce((sum, l) => sum + l.amount, 0),
    trialEnds: live?.status === 'trialing' && direction !== 'same',
    withTrial,
    direction,
    pricePerPeriod: planAmountCents(plan, seats),
    lines: figures.lines,
    nextCharge: direction === 'same' ? null : nextChargeOf(live, plan, seats, withTrial),
  };
}
