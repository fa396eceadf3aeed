import { planAmountCents } from '@helix/shared/plan-price';
import type { ChangePreviewView, PreviewLineView, UpcomingCharge } from '@helix/shared/schemas/billing';
import type { Plan } from '../db.ts';
import type { Actor } from '../sessions/session.service.ts';
import {
  planOfSubscription,
  readBillingAccount,
  trialUsed,
  type BillingAccount,
} from './billing-account.query.ts';
import { authorizeBilling } from './billing.policy.ts';
import { checkSeats } from './change-subscription.command.ts';
import { planPriceId } from './stripe-catalog.command.ts';
import { stripeOf, type Stripe } from './stripe-client.ts';
import { planAndSeats } from './tenant-plan.ts';
import { storedCustomerId, type BillingDeps } from './tenant-billing.ts';

/**
 * What a plan or seat change (or a first subscription) would charge, from Stripe's invoice preview
 * (`invoices.createPreview` with the same items, proration and trial end the change would use), on
 * Stripe and stripe-local alike: the figures are the ones the change is then invoiced with. Only a
 * tenant without a Stripe customer yet (nothing to prorate) is answered from the plan's price.
 */

const intervalOf = (plan: Plan) => (plan.planType === 'YEARLY' ? ('year' as const) : ('month' as const));
const perMonth = (plan: Plan, seats: number) =>
  planAmountCents(plan, seats) / (plan.planType === 'YEARLY' ? 12 : 1);
const now = () => Math.floor(Date.now() / 1000);

interface Figures {
  amountDueNow: number;
  lines: PreviewLineView[];
  /** When the period the preview pays for ends (the next charge after the change), if known. */
  paidUntil: number | null;
}

const lineOf = (line: Stripe.InvoiceLineItem): PreviewLineView => ({
  description: line.description ?? null,
  amount: line.amount,
  proration: Boolean(
    line.parent?.subscription_item_details?.proration ?? line.parent?.invoice_item_details?.proration,
  ),
  periodStart: line.period?.start ?? null,
  periodEnd: line.period?.end ?? null,
});

/**
 * Stripe's preview of the change. No proration_date: Stripe prorates at its own now (a test clock's
 * time for a customer on one), as the change itself will.
 */
async function stripePreview(
  stripe: Stripe,
  account: BillingAccount,
  priceId: string,
  seats: number,
  opts: { trialDays: number | null },
): Promise<Figures> {
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
  const lines = (preview.lines?.data ?? []).map(lineOf);
  const ends = lines.map((l) => l.periodEnd).filter((end): end is number => end !== null);
  return { amountDueNow: preview.amount_due, lines, paidUntil: ends.length ? Math.max(...ends) : null };
}

/** A first subscription for a tenant Stripe does not know yet: the plan's price, or $0 with a trial. */
function firstInvoice(plan: Plan, seats: number, withTrial: boolean): Figures {
  const amount = withTrial ? 0 : planAmountCents(plan, seats);
  return {
    amountDueNow: amount,
    lines: [
      {
        description: `${seats} × ${plan.name}`,
        amount,
        proration: false,
        periodStart: now(),
        periodEnd: null,
      },
    ],
    paidUntil: null,
  };
}

/** The next charge after the change: the end of the period it pays for (Stripe's), at the new price. */
function nextChargeOf(
  live: Stripe.Subscription | null,
  plan: Plan,
  seats: number,
  withTrial: boolean,
  paidUntil: number | null,
): UpcomingCharge {
  const amount = planAmountCents(plan, seats);
  const days = (n: number) => now() + n * 86_400;
  const periodDays = plan.planType === 'YEARLY' ? 365 : 30;
  let date: number;
  if (paidUntil) date = paidUntil;
  else if (!live) date = withTrial ? days(plan.trialDays) : days(periodDays);
  else date = live.items.data[0]?.current_period_end ?? days(periodDays);
  return { date, amount, credit: 0, currency: 'usd' };
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
  const account = customerId ? await readBillingAccount(stripe, customerId) : null;
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
  const withTrial = !live && !trialUsed(stored, account);
  const from = live && fromPlan ? { plan: fromPlan, seats: fromSeats } : null;
  const direction = !from
    ? ('new' as const)
    : from.plan.id === plan.id && from.seats === seats
      ? ('same' as const)
      : perMonth(plan, seats) >= perMonth(from.plan, from.seats)
        ? ('upgrade' as const)
        : ('downgrade' as const);
  // The same order is no change (change-plan answers "applied" without asking Stripe): nothing is due.
  const figures =
    direction === 'same'
      ? { amountDueNow: 0, lines: [], paidUntil: null }
      : account
        ? await stripePreview(stripe, account, await planPriceId(deps, plan), seats, {
            trialDays: withTrial ? plan.trialDays : null,
          })
        : firstInvoice(plan, seats, withTrial);
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
    nextCharge: direction === 'same' ? null : nextChargeOf(live, plan, seats, withTrial, figures.paidUntil),
  };
}
