import { Button, Typography } from 'antd';
import type { SubscriptionSummaryView } from '@helix/shared/schemas/billing';
import { MSG } from '@helix/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { SubscriptionSummaryView as SummarySchema } from '@helix/shared/schemas/billing';
import { subscriptionDetail, subscriptionSummary } from '../../api/billing.api';
import { payChangeInvoice } from '../../billing/change-flow';
import { paymentErrorText } from '../../billing/card-error';
import { stripeInstance } from '../../billing/stripe-instance';
import { sessionSubscriptionState } from '../../billing/subscription-state';
import { abilitiesOf } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { toastError, toastSuccess } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { FIRST_ANSWER, peekFirstAnswer, takeFirstAnswer } from '../../prerender/first-answers';
import { goToProvider, portalUrl } from '../../billing/provider-redirect';
import { ChangeConfirmModal, type ChangeTarget } from './change-confirm.modal';
import { PlanWizard } from './plan-wizard';
import { SubscriptionSummary } from './subscription-summary';
import { ViewsUsage } from './views-usage';
import '../plans/plans.css';

function seededSummary(): SubscriptionSummaryView | null {
  const parsed = SummarySchema.safeParse(peekFirstAnswer(FIRST_ANSWER.subscriptionSummary));
  return parsed.success ? parsed.data : null;
}

/**
 * /subscription (plan selection) and /user/settings/subscription (the plan page in settings): the
 * tenant's plan as Stripe bills it (summary: seats, price, next charge), the seat editor, its billing
 * details on the provider's portal, and the plan wizard.
 */
export function SubscriptionPage() {
  const user = useSessionUser();
  const [busy, setBusy] = useState(false);
  // A drawn subscription page came with the summary (src/prerender/first-answers.ts).
  const [summary, setSummary] = useState<SubscriptionSummaryView | null>(seededSummary);
  const seeded = useRef(summary !== null);
  const [seatsChange, setSeatsChange] = useState<ChangeTarget | null>(null);
  const state = sessionSubscriptionState(user?.subscription ?? null);
  const hasBilling = state.kind !== 'not_subscribed';
  const mayView = abilitiesOf(user).billing;

  const loadSummary = useCallback(async () => {
    if (!mayView) return;
    // Quiet: the page still offers the plans when the summary cannot be read.
    const answer = await subscriptionSummary({ toast: false }).catch(() => null);
    if (answer) setSummary(answer);
  }, [mayView]);

  // Read again when the session's subscription changes (a webhook applied a change, a refresh).
  const subscriptionKey = JSON.stringify(user?.subscription ?? null);
  useEffect(() => {
    if (seeded.current) {
      seeded.current = false;
      takeFirstAnswer(FIRST_ANSWER.subscriptionSummary);
      return;
    }
    void loadSummary();
  }, [loadSummary, subscriptionKey]);

  const openBilling = async () => {
    setBusy(true);
    try {
      goToProvider(await subscriptionDetail({ returnUrl: portalUrl(window.location.pathname) }));
    } catch {
      // The client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };

  const completePayment = async () => {
    const action = summary?.paymentAction;
    if (!action) return;
    const pending = summary.pendingChange;
    const expected = pending?.planId ? { planId: pending.planId, seats: pending.seats } : undefined;
    try {
      const outcome = await payChangeInvoice(await stripeInstance(), action, { expected });
      if (outcome.status === 'needs-card') toastError(outcome.message);
      else toastSuccess(outcome.status === 'applied' ? MSG.subscribedSuccess : MSG.paymentStillPending);
    } catch (error) {
      toastError(paymentErrorText(error));
    }
    await loadSummary();
  };

  const onChanged = () => {
    void loadSummary();
  };

  return (
    <section className="page subscription-page">
      <PageTitle title="Subscription" />
      <Typography.Title level={1} className="page-title">
        Subscription
      </Typography.Title>
      {hasBilling && (
        <div className="subscription-summary">
          {summary ? (
            <SubscriptionSummary
              summary={summary}
              onChangeSeats={(seats) =>
                setSeatsChange({
                  request: { kind: 'seats', quantity: seats },
                  title: `Change to ${seats} users`,
                })
              }
              onCompletePayment={() => void completePayment()}
            />
          ) : null}
          {/* Read again whenever the plan or its period moves (an upgrade): the allowance and the
              period end are the API's answer for the plan in force, never the first one's. */}
          <ViewsUsage
            key={`${summary?.planId ?? 'none'}-${summary?.seats ?? 0}-${summary?.currentPeriodEnd ?? 0}`}
          />
          {(summary?.canManage ?? true) && (
            <Button onClick={() => void openBilling()} loading={busy}>
              Billing Details
            </Button>
          )}
        </div>
      )}
      <ChangeConfirmModal
        target={seatsChange}
        onClose={() => setSeatsChange(null)}
        onSettled={(outcome) => {
          const seats = seatsChange?.request.quantity ?? 0;
          setSeatsChange(null);
          toastSuccess(outcome === 'applied' ? MSG.seatsChanged(seats) : MSG.paymentStillPending);
          onChanged();
        }}
      />
      <PlanWizard source="tenant" summary={summary} onChanged={onChanged} />
    </section>
  );
}
