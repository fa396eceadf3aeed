import { Alert, Empty, Radio, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { MSG } from '@helix/shared';
import { fetchPlans } from '../../api/plans.api';
import { plansFor, type Period, type Plan } from '../../plans/plan-display';
import { useSessionUser } from '../../session/use-session';
import { toastError } from '../../ui/notify';
import { PlanCard } from './plan-card';

type LoadState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; plans: Plan[] };

/** Plan cards for the chosen period with a monthly/annual toggle (accounts 2, plan wizard). */
export function PlanList({ source }: { source: 'guest' | 'tenant' }) {
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [period, setPeriod] = useState<Period>('MONTHLY');
  const user = useSessionUser();
  const trialAvailable = !user?.subscription?.isTrialPassed;

  useEffect(() => {
    const controller = new AbortController();
    fetchPlans(source, controller.signal)
      .then((plans) => setState({ status: 'ready', plans }))
      .catch(() => {
        if (controller.signal.aborted) return;
        toastError(MSG.failedLoadSubscriptions);
        setState({ status: 'failed' });
      });
    return () => controller.abort();
  }, [source]);

  if (state.status === 'loading') {
    return (
      <div className="plans-loading">
        <Spin aria-label="Loading plans" />
      </div>
    );
  }
  if (state.status === 'failed') return <Alert type="error" showIcon title={MSG.failedLoadSubscriptions} />;

  const shown = plansFor(state.plans, period);
  return (
    <div className="plan-list">
      <div className="plan-period-toggle">
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          value={period}
          onChange={(e) => setPeriod(e.target.value as Period)}
          aria-label="Billing period"
          options={[
            { label: 'Monthly', value: 'MONTHLY' },
            { label: 'Annual', value: 'YEARLY' },
          ]}
        />
        <span className="plan-save-note">{MSG.saveAnnual}</span>
      </div>
      {shown.length === 0 ? (
        <Empty description={MSG.noPlans} />
      ) : (
        <div className="plan-grid">
          {shown.map((plan) => (
            <PlanCard key={plan.id} plan={plan} trialAvailable={trialAvailable} />
          ))}
        </div>
      )}
    </div>
  );
}
