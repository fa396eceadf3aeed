import { Button, Card, Tag, Tooltip, Typography } from 'antd';
import { MSG } from '@helix/shared';
import {
  basePrice,
  formatUsd,
  isDynamicQuantity,
  perUserCost,
  planPeriod,
  type Plan,
} from '../../plans/plan-display';
import { toastInfo } from '../../ui/notify';

interface PlanCardProps {
  plan: Plan;
  /** While the 30-day trial is still open to this visitor, the card offers it. */
  trialAvailable: boolean;
}

export function PlanCard({ plan, trialAvailable }: PlanCardProps) {
  const price = formatUsd(basePrice(plan));
  const perUser = perUserCost(plan);
  const period = planPeriod(plan) === 'YEARLY' ? 'per year' : 'per month';
  const headingId = `plan-${plan.id}-name`;
  const current = plan.isSubscribed === 1 || plan.isSubscribed === true;

  return (
    <section aria-labelledby={headingId} className="plan-card">
      <Card>
        <Typography.Title level={3} id={headingId} className="plan-name">
          {plan.name}
        </Typography.Title>
        {current && <Tag color="green">Current plan</Tag>}
        <p className="plan-price">
          <Tooltip title={perUser ? `$${perUser} per user` : undefined}>
            <span className="plan-amount">{price}</span>
          </Tooltip>{' '}
          <span className="plan-period">{period}</span>
        </p>
        {plan.userLimit ? (
          <p className="plan-users">
            {plan.userLimit} {plan.userLimit === 1 ? 'user' : 'users'} included
            {isDynamicQuantity(plan) ? `, ${formatUsd(Number(plan.price) || 0)} per extra user` : ''}
          </p>
        ) : null}
        {plan.description && <p className="plan-description">{plan.description}</p>}
        {trialAvailable && <p className="plan-trial">{MSG.trialOffer(plan.name, price)}</p>}
        {/* Card payment arrives with the payment issue; until then the button says so honestly. */}
        <Button type="primary" block onClick={() => toastInfo(MSG.cardPaymentNotAvailable)}>
          Buy Now
        </Button>
      </Card>
    </section>
  );
}
