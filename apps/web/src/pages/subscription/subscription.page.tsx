import { Button, Descriptions, Typography } from 'antd';
import dayjs from 'dayjs';
import advancedFormat from 'dayjs/plugin/advancedFormat';
import { useState } from 'react';
import { subscriptionDetail } from '../../api/billing.api';
import { sessionSubscriptionState } from '../../billing/subscription-state';
import { useSessionUser } from '../../session/use-session';
import { PageTitle } from '../../ui/page-title';
import { goToProvider, portalUrl } from '../../billing/provider-redirect';
import { PlanWizard } from './plan-wizard';
import '../plans/plans.css';

dayjs.extend(advancedFormat);

const STATE_LABEL = {
  not_subscribed: 'Not subscribed',
  trial: 'Trial',
  subscribed: 'Subscribed',
  cancelled: 'Cancelled',
  deactivated: 'Deactivated',
  payment_failed: 'Payment failed',
} as const;

const formatDate = (ms: number) => dayjs(ms).format('MMMM, Do YYYY');

/**
 * /subscription (plan selection) and /user/settings/subscription (the plan page in settings): the
 * tenant's plan, its billing details on the provider's portal, and the plan wizard.
 */
export function SubscriptionPage() {
  const user = useSessionUser();
  const [busy, setBusy] = useState(false);
  const subscription = user?.subscription ?? null;
  const state = sessionSubscriptionState(subscription);
  const hasBilling = state.kind !== 'not_subscribed';

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

  return (
    <section className="page subscription-page">
      <PageTitle title="Subscription" />
      <Typography.Title level={1} className="page-title">
        Subscription
      </Typography.Title>
      {hasBilling && (
        <div className="subscription-summary">
          <Descriptions
            size="small"
            column={1}
            items={[
              { key: 'plan', label: 'Plan', children: subscription?.name ?? '—' },
              { key: 'status', label: 'Status', children: STATE_LABEL[state.kind] },
              ...(state.kind === 'trial' && state.trialEnd
                ? [{ key: 'trial', label: 'Trial ends', children: formatDate(state.trialEnd) }]
                : []),
              ...(state.cancelAt
                ? [{ key: 'until', label: 'Valid till', children: formatDate(state.cancelAt) }]
                : []),
            ]}
          />
          <Button onClick={() => void openBilling()} loading={busy}>
            Billing Details
          </Button>
        </div>
      )}
      <PlanWizard source="tenant" />
    </section>
  );
}
