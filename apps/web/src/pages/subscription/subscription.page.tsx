import { Button, Typography } from 'antd';
import type { SubscriptionSummaryView } from '@helix/shared/schemas/billing';
import { MSG } from '@helix/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { payChangeInvoice } from '../../billing/change-flow';
import { paymentErrorText } from '../../billing/card-error';
import { stripeInstance } from '../../billing/stripe-instance';
import { sessionSubscriptionState } from '../../billing/subscription-state';
import { abilitiesOf } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import { toastError, toastSuccess } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { useBillingPortal } from '../../billing/use-billing-portal';
import { ChangeConfirmModal, type ChangeTarget } from './change-confirm.modal';
import { PlanWizard } from './plan-wizard';
import { SubscriptionSummary } from './subscription-summary';
import { summaryQuery } from './subscription-queries';
import { ViewsUsage } from './views-usage';
import '../plans/plans.css';

/**
 * /subscription (plan selection) and /user/settings/subscription (the plan page in settings): the
 * tenant's plan as Stripe bills it (summary: seats, price, next charge), the seat editor, its billing
 * details on the provider's portal, and the plan wizard.
 */
export function SubscriptionPage() {
  const user = useSessionUser();
  const portal = useBillingPortal();
  const [seatsChange, setSeatsChange] = useState<ChangeTarget | null>(null);
  const state = sessionSubscriptionState(user?.subscription ?? null);
  const hasBilling = state.kind !== 'not_subscribed';
  const mayView = abilitiesOf(user).billing;
  // A server-rendered page came with the summary (its dehydrated state); a failed read keeps the last.
  const summary: SubscriptionSummaryView | null =
    useQuery({ ...summaryQuery, enabled: mayView }).data ?? null;
  const queryClient = useQueryClient();
  const loadSummary = useCallback(
    () => (mayView ? queryClient.refetchQueries({ queryKey: summaryQuery.queryKey }) : Promise.resolve()),
    [mayView, queryClient],
  );

  // Read again when the session's subscription changes (a webhook applied a change, a refresh).
  const subscriptionKey = JSON.stringify(user?.subscription ?? null);
  const firstKey = useRef(subscriptionKey);
  useEffect(() => {
    if (firstKey.current === subscriptionKey) return;
    firstKey.current = subscriptionKey;
    void loadSummary();
  }, [loadSummary, subscriptionKey]);

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
            <Button onClick={portal.open} loading={portal.busy}>
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
