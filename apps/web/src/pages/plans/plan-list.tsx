import { Alert, Button, Card, Empty, Radio, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { MSG } from '@helix/shared';
import { fetchPlans } from '../../api/plans.api';
import { FIRST_ANSWER, peekFirstAnswer, takeFirstAnswer } from '../../prerender/first-answers';
import { planButton, type PlanChoiceContext } from '../../plans/plan-choice';
import {
  counterpart,
  defaultQuantity,
  planPeriod,
  plansFor,
  toPlanList,
  type Period,
  type Plan,
} from '../../plans/plan-display';
import { toastError } from '../../ui/notify';
import { PlanCard, type ManageAction } from './plan-card';
import { PoweredBy } from './powered-by';
import './plans.css';

type LoadState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; plans: Plan[] };

export interface PlanListProps {
  source: 'guest' | 'tenant';
  /** Who is choosing (current plan, trial, pending cancellation); selectedId is kept here. */
  context: Omit<PlanChoiceContext, 'selectedId'>;
  /** Buy Now on a card; `selected` says whether that card is the picked plan. */
  onBuy(plan: Plan, quantity: string, selected: boolean): void | Promise<void>;
  onManage?: (action: ManageAction) => void;
  /** Which card's Buy Now is working. */
  busyPlanId?: number | null;
}

const firstAnswerOf = (source: 'guest' | 'tenant') =>
  source === 'guest' ? FIRST_ANSWER.guestPlans : FIRST_ANSWER.tenantPlans;

/** The plans a drawn page came with, as the first state; loading otherwise. */
function seededPlans(source: 'guest' | 'tenant'): LoadState {
  const answer = peekFirstAnswer(firstAnswerOf(source));
  if (answer === undefined) return { status: 'loading' };
  try {
    return { status: 'ready', plans: toPlanList(answer) };
  } catch {
    return { status: 'loading' };
  }
}

/**
 * Plan cards for the chosen period with a monthly/annual toggle, the custom-pricing card and the
 * provider's mark (accounts 2, plan wizard).
 */
export function PlanList({ source, context, onBuy, onManage, busyPlanId = null }: PlanListProps) {
  // A drawn /choose-subscription came with the guest plans (src/prerender/first-answers.ts).
  const [state, setState] = useState<LoadState>(() => seededPlans(source));
  const seeded = useRef(state.status === 'ready');
  const [period, setPeriod] = useState<Period>('MONTHLY');
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [quantities, setQuantities] = useState<Record<number, string>>({});

  useEffect(() => {
    if (seeded.current) {
      seeded.current = false;
      takeFirstAnswer(firstAnswerOf(source));
      return;
    }
    const controller = new AbortController();
    fetchPlans(source, controller.signal)
      .then((plans) => {
        setState({ status: 'ready', plans });
        // Open on the period of the tenant's plan, so its card (and Manage menu) is in view.
        const current = plans.find((p) => p.id === context.currentPlanId);
        if (current) setPeriod(planPeriod(current));
      })
      .catch(() => {
        if (controller.signal.aborted) return;
        toastError(MSG.failedLoadSubscriptions);
        setState({ status: 'failed' });
      });
    return () => controller.abort();
  }, [source, context.currentPlanId]);

  if (state.status === 'loading') {
    return (
      <div className="plans-loading">
        <Spin aria-label="Loading plans" />
      </div>
    );
  }
  if (state.status === 'failed') return <Alert type="error" showIcon title={MSG.failedLoadSubscriptions} />;

  const quantityOf = (plan: Plan) => quantities[plan.id] ?? String(defaultQuantity(plan));
  const changePeriod = (next: Period) => {
    setPeriod(next);
    // The toggle keeps the buyer's choice: the same family in the other period.
    const picked = state.plans.find((p) => p.id === selectedId);
    const other = picked ? counterpart(state.plans, picked, next) : undefined;
    setSelectedId(other?.id ?? null);
  };
  const ctx: PlanChoiceContext = { ...context, selectedId };
  const shown = plansFor(state.plans, period);
  // The tenant's plan, for Upgrade / Downgrade by price.
  const current = state.plans.find((p) => p.id === context.currentPlanId);

  return (
    <div className="plan-list">
      <div className="plan-period-toggle">
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          value={period}
          onChange={(e) => changePeriod(e.target.value as Period)}
          aria-label="Billing period"
        >
          <Radio.Button value="MONTHLY">
            Monthly
          </Radio.Button>
          <Radio.Button value="YEARLY">
            Annual
          </Radio.Button>
        </Radio.Group>
        <span className="plan-save-note">{MSG.saveAnnual}</span>
      </div>
      {shown.length === 0 ? (
        <Empty description={MSG.noPlans} />
      ) : (
        <div className="plan-grid">
          {shown.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              quantity={quantityOf(plan)}
              onQuantity={(value) => setQuantities((q) => ({ ...q, [plan.id]: value }))}
              button={planButton(plan, ctx, current)}
              onChoose={() => setSelectedId(plan.id)}
              onBuy={() => void onBuy(plan, quantityOf(plan), selectedId === plan.id)}
              trialAvailable={context.trialAvailable}
              planInForce={context.currentPlanId !== null}
              current={plan.id === context.currentPlanId}
              onManage={onManage}
              busy={busyPlanId === plan.id}
            />
          ))}
          <CustomPricingCard />
        </div>
      )}
      <PoweredBy />
    </div>
  );
}

function CustomPricingCard() {
  return (
    <section aria-labelledby="plan-custom-name" className="plan-card plan-card-custom">
      <Card>
        <Typography.Title level={2} id="plan-custom-name" className="plan-name">
          {MSG.customPricingTitle}
        </Typography.Title>
        <p className="plan-description">{MSG.customPricingBody}</p>
        <Button block href="mailto:sales@helix.example?subject=Custom%20pricing">
          Contact Us
        </Button>
      </Card>
    </section>
  );
}
