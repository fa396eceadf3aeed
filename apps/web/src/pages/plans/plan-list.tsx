import { Button, Card, Radio, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useEffect, useRef, useState } from 'react';
import { MSG } from '@helix/shared';
import { planButton, type PlanChoiceContext } from '../../plans/plan-choice';
import {
  counterpart,
  defaultQuantity,
  planPeriod,
  plansFor,
  type Period,
  type Plan,
} from '../../plans/plan-display';
import { toastError } from '../../ui/notify';
import { QueryEmpty, QueryState } from '../../ui/query-state';
import { planListQuery } from '../subscription/subscription-queries';
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

/**
 * Plan cards for the chosen period with a monthly/annual toggle, the custom-pricing card and the
 * provider's mark (accounts 2, plan wizard).
 */
export function PlanList({ source, context, onBuy, onManage, busyPlanId = null }: PlanListProps) {
  // A server-rendered page came with the plans (its dehydrated state).
  const query = useQuery(planListQuery(source));
  const state: LoadState = query.data
    ? { status: 'ready', plans: query.data }
    : query.isError
      ? { status: 'failed' }
      : { status: 'loading' };
  const currentOf = (plans: Plan[] | undefined) => plans?.find((p) => p.id === context.currentPlanId);
  // Open on the period of the tenant's plan, so its card (and Manage menu) is in view.
  const [period, setPeriod] = useState<Period>(() => {
    const current = currentOf(query.data);
    return current ? planPeriod(current) : 'MONTHLY';
  });
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const [quantities, setQuantities] = useState<Record<number, string>>({});
  const queryClient = useQueryClient();

  // The tenant's plan changed (a purchase, a webhook): the catalogue is read again (isSubscribed).
  const firstPlanId = useRef(context.currentPlanId);
  useEffect(() => {
    if (firstPlanId.current === context.currentPlanId) return;
    firstPlanId.current = context.currentPlanId;
    void queryClient.invalidateQueries({ queryKey: planListQuery(source).queryKey });
  }, [queryClient, source, context.currentPlanId]);

  const answeredAt = query.dataUpdatedAt;
  useEffect(() => {
    const current = currentOf(query.data);
    if (current) setPeriod(planPeriod(current));
    // On each new answer only (not on every render).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [answeredAt, context.currentPlanId]);

  const failedAt = query.errorUpdatedAt;
  useEffect(() => {
    if (failedAt > 0) toastError(MSG.failedLoadSubscriptions);
  }, [failedAt]);

  // The Annual switch answers at once; the cards follow as a transition (a tap is painted first).
  const shownPeriod = useDeferredValue(period);
  // Stable across renders, so a card re-renders only when its own props change (PlanCard is memo).
  const latest = useRef({ onBuy, quantities, selectedId });
  latest.current = { onBuy, quantities, selectedId };
  const setQuantity = useCallback(
    (planId: number, value: string) => setQuantities((q) => ({ ...q, [planId]: value })),
    [],
  );
  const buy = useCallback((plan: Plan) => {
    const { onBuy: buyNow, quantities: typed, selectedId: picked } = latest.current;
    void buyNow(plan, typed[plan.id] ?? String(defaultQuantity(plan)), picked === plan.id);
  }, []);

  if (state.status !== 'ready') {
    return (
      <div className="plans-loading">
        <QueryState query={query} failed={MSG.failedLoadSubscriptions} loading="Loading plans" />
      </div>
    );
  }

  const quantityOf = (plan: Plan) => quantities[plan.id] ?? String(defaultQuantity(plan));
  const changePeriod = (next: Period) => {
    setPeriod(next);
    // The toggle keeps the buyer's choice: the same family in the other period.
    const picked = state.plans.find((p) => p.id === selectedId);
    const other = picked ? counterpart(state.plans, picked, next) : undefined;
    setSelectedId(other?.id ?? null);
  };
  const ctx: PlanChoiceContext = { ...context, selectedId };
  const shown = plansFor(state.plans, shownPeriod);
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
          <Radio.Button value="MONTHLY">Monthly</Radio.Button>
          <Radio.Button value="YEARLY">Annual</Radio.Button>
        </Radio.Group>
        <span className="plan-save-note">{MSG.saveAnnual}</span>
      </div>
      {shown.length === 0 ? (
        <QueryEmpty message={MSG.noPlans} />
      ) : (
        <div className="plan-grid">
          {shown.map((plan) => (
            <PlanCard
              // By family: a period switch updates each card in place (its prices), never remounts it.
              key={plan.family}
              plan={plan}
              quantity={quantityOf(plan)}
              onQuantity={setQuantity}
              {...planButton(plan, ctx, current)}
              onChoose={setSelectedId}
              onBuy={buy}
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
