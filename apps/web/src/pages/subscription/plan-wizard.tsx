import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { MSG } from '@helix/shared';
import type { SubscriptionSummaryView } from '@helix/shared/schemas/billing';
import { cancelPlan, createCheckout, subscriptionDetail } from '../../api/billing.api';
import { goToProvider, portalUrl } from '../../billing/provider-redirect';
import {
  sessionSubscriptionState,
  trialAvailable,
  cancellationPending,
} from '../../billing/subscription-state';
import { buyAction, currentPlanId } from '../../plans/plan-choice';
import { isDynamicQuantity, type Plan } from '../../plans/plan-display';
import { validUserCount } from '../../plans/quantity';
import { logoutOnServer } from '../../api/auth.api';
import { clearLocalSession, refreshSessionUser } from '../../session/session';
import { useSession } from '../../session/use-session';
import { toastError, toastSuccess } from '../../ui/notify';
import { PlanList } from '../plans/plan-list';
import type { ManageAction } from '../plans/plan-card';
import { ChangeConfirmModal, type ChangeTarget } from './change-confirm.modal';
import { FinishUp } from './finish-up';

/** 'Please select a plan to continue.' stays 3 s (accounts 8). */
const SELECT_PLAN_SECONDS = 3;

export type WizardPhase = 'choose' | 'pay';

interface Checkout {
  plan: Plan;
  quantity: number;
  flow: 'trial' | 'card';
  /** Why the flow changed (the card already had its trial). */
  notice?: string;
}

/**
 * The plan wizard: choose a plan, then Finish Up (the payment form) or, for a tenant that holds a plan,
 * the provider's confirm page. Used by the sign-up flow (step 2 and 3), /subscription and the settings
 * plan page.
 */
export function PlanWizard({
  source,
  onPhase,
  summary = null,
  onChanged,
}: {
  source: 'guest' | 'tenant';
  onPhase?: (phase: WizardPhase) => void;
  /** The tenant's subscription summary (seats for prices, whether the viewer may pay). */
  summary?: SubscriptionSummaryView | null;
  /** A plan change went through (or is paid and being applied): the page reads its summary again. */
  onChanged?: () => void;
}) {
  const { user, authType } = useSession();
  const navigate = useNavigate();
  const [checkout, setCheckout] = useState<Checkout | null>(null);
  const [busyPlanId, setBusyPlanId] = useState<number | null>(null);
  const [change, setChange] = useState<ChangeTarget | null>(null);

  const state = sessionSubscriptionState(user?.subscription);
  const context = {
    currentPlanId: currentPlanId(state, user?.subscription?.planId),
    trialAvailable: trialAvailable(user?.subscription),
    cancellationPending: cancellationPending(state),
    currentSeats: summary?.seats ?? null,
    readOnly: summary ? !summary.canManage : false,
  };
  const guest = authType === 'is-register';

  const phase = (next: Checkout | null) => {
    setCheckout(next);
    onPhase?.(next ? 'pay' : 'choose');
  };

  const withBusy = async (planId: number, run: () => Promise<void>) => {
    setBusyPlanId(planId);
    try {
      await run();
    } catch {
      // The client has shown the server's message already.
    } finally {
      setBusyPlanId(null);
    }
  };

  const onBuy = (plan: Plan, typed: string, selected: boolean) => {
    const action = buyAction(plan, {
      ...context,
      selectedId: selected ? plan.id : null,
      signedIn: Boolean(user),
    });
    const quantity = isDynamicQuantity(plan) ? validUserCount(typed, plan.userLimit) : plan.userLimit;
    if (quantity === null) return;
    switch (action.kind) {
      case 'select-first':
        return toastError(MSG.selectPlan, SELECT_PLAN_SECONDS);
      case 'sign-up':
        return void navigate('/signup');
      case 'pay':
        return phase({ plan, quantity, flow: action.flow });
      case 'change-plan':
        // A live subscription changes in place (Stripe's subscription update), after the buyer has
        // seen what is charged now; never a new payment intent, never the provider's page.
        return setChange({
          request: {
            kind: 'plan',
            planId: plan.id,
            quantity: isDynamicQuantity(plan) ? quantity : undefined,
          },
          title: `Change to ${plan.name}`,
        });
      case 'none':
        return;
    }
  };

  const onManage = (action: ManageAction) => {
    const planId = context.currentPlanId ?? 0;
    void withBusy(planId, async () => {
      goToProvider(
        action === 'cancel'
          ? await cancelPlan({ returnUrl: portalUrl('/success/unsubscribe') })
          : await subscriptionDetail({ returnUrl: portalUrl(window.location.pathname) }),
      );
    });
  };

  const onPaid = (paid: Checkout) => {
    if (paid.flow === 'trial' && guest) {
      // A registering visitor: welcome, then sign in afresh (the session cookies are cleared).
      toastSuccess(MSG.registrationSuccess);
      void logoutOnServer().catch(() => undefined);
      clearLocalSession();
      return void navigate(`/guest-success/subscribe/${paid.plan.id}`);
    }
    toastSuccess(MSG.subscribedSuccess);
    void navigate(paid.flow === 'trial' ? `/success/subscribe/${paid.plan.id}` : '/success/subscribe');
  };

  const onChangeSettled = (outcome: 'applied' | 'pending', target: ChangeTarget | null) => {
    setChange(null);
    const planName = target?.title.replace(/^Change to /, '') ?? '';
    if (outcome === 'applied') toastSuccess(MSG.planChanged(planName));
    else toastSuccess(MSG.paymentStillPending);
    onChanged?.();
  };

  // The plan list stays mounted (hidden) behind Finish Up, so "Back to plans" finds the period, the
  // picked plan and the typed user counts as the buyer left them.
  return (
    <>
      <ChangeConfirmModal
        target={change}
        onClose={() => setChange(null)}
        onSettled={(outcome) => onChangeSettled(outcome, change)}
      />
      {checkout && (
        <FinishUp
          plan={checkout.plan}
          quantity={checkout.quantity}
          flow={checkout.flow}
          guest={guest}
          onBack={() => phase(null)}
          onPaid={() => onPaid(checkout)}
          notice={checkout.notice}
          onTrialUsed={() => {
            // The card already had a free trial somewhere: the plan is charged now (paid flow).
            phase({ ...checkout, flow: 'card', notice: MSG.trialAlreadyUsed });
            void refreshSessionUser().catch(() => null);
          }}
          onHostedCheckout={async () => {
            const { plan, quantity } = checkout;
            await createCheckout({
              planId: plan.id,
              quantity,
              successUrl: portalUrl(`/success/subscribe/${plan.id}`),
              cancelUrl: portalUrl(window.location.pathname),
            }).then(goToProvider, () => undefined);
          }}
        />
      )}
      <div hidden={Boolean(checkout)}>
        <PlanList
          source={source}
          context={context}
          onBuy={onBuy}
          onManage={user && !context.readOnly ? onManage : undefined}
          busyPlanId={busyPlanId}
        />
      </div>
    </>
  );
}
