import { DownOutlined } from '@ant-design/icons';
import { Button, Card, Input, Tag, Tooltip, Typography } from 'antd';
import { memo } from 'react';
import { MSG } from '@helix/shared';
import { messageId, PlainField } from '../../forms/plain-field';
import type { PlanButton } from '../../plans/plan-choice';
import {
  formatUsd,
  isDynamicQuantity,
  perUserCost,
  planPeriod,
  planPrice,
  type Plan,
} from '../../plans/plan-display';
import { userCountError, validUserCount } from '../../plans/quantity';
import { formatCount } from '../../ui/count-format';
import { PopoverMenu, type PopoverMenuItem } from '../../ui/popover-menu';

export type ManageAction = 'details' | 'cancel';

interface PlanCardProps {
  plan: Plan;
  /** The user count as typed (a dynamic-quantity plan lets the buyer change it). */
  quantity: string;
  onQuantity(planId: number, value: string): void;
  /** The choose button (plan-choice.ts's planButton), as plain props so an unchanged card skips rendering. */
  label: PlanButton['label'];
  disabled: PlanButton['disabled'];
  onChoose(planId: number): void;
  onBuy(plan: Plan): void;
  /** While the 30-day trial is open to this buyer the card offers it, else the amount charged now. */
  trialAvailable: boolean;
  /**
   * The tenant holds a plan in force (trial included): a change is charged the difference that the
   * confirmation's preview shows (nothing on a downgrade or during a trial's plan), never the card's
   * whole price, so the card does not name an amount charged now.
   */
  planInForce?: boolean;
  /** The tenant's plan: it carries the Manage menu. */
  current: boolean;
  onManage?: (action: ManageAction) => void;
  busy: boolean;
}

const MANAGE_ITEMS: PopoverMenuItem[] = [
  { key: 'details', label: 'Details' },
  { key: 'cancel', label: 'Cancel Plan', danger: true },
];

/** What the card says is charged: the trial, the whole price now, or nothing before the preview. */
function chargeLine(props: PlanCardProps, price: string): string | null {
  if (props.current) return MSG.currentPlanCharge;
  if (props.planInForce) return MSG.changeChargeInPreview;
  return props.trialAvailable ? MSG.trialOffer(props.plan.name, price) : MSG.chargedNow(price);
}

/** One plan's card; memo: a period switch or a pick re-renders only the cards whose props changed. */
export const PlanCard = memo(function PlanCard(props: PlanCardProps) {
  const { plan, quantity, current } = props;
  const button = { label: props.label, disabled: props.disabled };
  const dynamic = isDynamicQuantity(plan);
  const quantityError = dynamic ? userCountError(quantity, plan.userLimit) : null;
  const users = (dynamic ? validUserCount(quantity, plan.userLimit) : null) ?? plan.userLimit;
  const price = formatUsd(planPrice(plan, users));
  const period = planPeriod(plan) === 'YEARLY' ? 'per year' : 'per month';
  const headingId = `plan-${plan.id}-name`;
  const selected = button.label === 'Selected';

  return (
    <section aria-labelledby={headingId} className={selected ? 'plan-card is-selected' : 'plan-card'}>
      <Card>
        <Typography.Title level={2} id={headingId} className="plan-name">
          {plan.name}
        </Typography.Title>
        {current && <Tag color="green">Current plan</Tag>}
        <p className="plan-price">
          <Tooltip title={`$${perUserCost(plan)} per user`}>
            <span className="plan-amount" data-testid="plan-price" tabIndex={0}>
              {price}
            </span>
          </Tooltip>{' '}
          <span className="plan-period">{period}</span>
        </p>
        <p className="plan-users">
          {plan.userLimit} {plan.userLimit === 1 ? 'user' : 'users'} included
          {dynamic ? `, ${formatUsd(plan.price)} per extra user` : ''}
        </p>
        {plan.description && <p className="plan-description">{plan.description}</p>}
        <p className="plan-views">
          {plan.viewLimit === 0 ? MSG.unlimitedViews : `${formatCount(plan.viewLimit)} views`}
        </p>
        {dynamic && (
          <div className="plan-quantity">
            <PlainField id={`plan-${plan.id}-users`} label="Users" message={quantityError ?? undefined}>
              <Input
                id={`plan-${plan.id}-users`}
                inputMode="numeric"
                value={quantity}
                disabled={button.disabled}
                status={quantityError ? 'error' : undefined}
                aria-invalid={quantityError ? true : undefined}
                aria-describedby={quantityError ? messageId(`plan-${plan.id}-users`) : undefined}
                onChange={(e) => props.onQuantity(plan.id, e.target.value)}
              />
            </PlainField>
          </div>
        )}
        <p className="plan-trial">{chargeLine(props, price)}</p>
        <div className="plan-actions">
          <Button
            block
            type={selected ? 'primary' : 'default'}
            ghost={selected}
            disabled={button.disabled}
            aria-pressed={selected}
            onClick={() => props.onChoose(plan.id)}
          >
            {button.label}
          </Button>
          <Button
            type="primary"
            block
            loading={props.busy}
            disabled={button.disabled || Boolean(quantityError)}
            onClick={() => props.onBuy(plan)}
          >
            Buy Now
          </Button>
          {current && props.onManage && (
            <PopoverMenu
              label="Manage"
              align="start"
              items={MANAGE_ITEMS}
              onSelect={(key) => props.onManage?.(key as ManageAction)}
              trigger={(menu) => (
                <Button block {...menu}>
                  Manage <DownOutlined aria-hidden />
                </Button>
              )}
            />
          )}
        </div>
      </Card>
    </section>
  );
});
