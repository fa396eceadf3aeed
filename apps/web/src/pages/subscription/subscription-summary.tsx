import { Alert, Button, Descriptions, Tag } from 'antd';
// The input itself, not antd's Input namespace (pages/login/login.form.tsx).
import Input from 'antd/es/input/Input';
import type { SubscriptionSummaryView } from '@helix/shared/schemas/billing';
import { MSG } from '@helix/shared';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { formatMoney, formatUnixDate } from '../../billing/money';
import { messageId, PlainField } from '../../forms/plain-field';

const STATE_LABEL: Record<SubscriptionSummaryView['state'], string> = {
  not_subscribed: 'Not subscribed',
  trial: 'Trial',
  subscribed: 'Subscribed',
  cancelled: 'Cancelled',
  deactivated: 'Deactivated',
  payment_failed: 'Payment failed',
};

/** Why a typed seat count cannot be sent; null when it can. */
function seatsError(value: number | null, summary: SubscriptionSummaryView): string | null {
  if (value === null || !Number.isInteger(value) || value < 1) return MSG.positiveIntegers;
  if (summary.minSeats !== null && value < summary.minSeats) return MSG.userCountMin(summary.minSeats);
  if (summary.maxSeats !== null && value > summary.maxSeats) return MSG.seatsAboveMax(summary.maxSeats);
  return null;
}

/**
 * The plan page's facts from the server's summary (Stripe's subscription and upcoming invoice): plan,
 * status, seats (the subscription's quantity), price per period, next charge; a change waiting for its
 * payment; and, for the owner on a plan that sells seats, the seat editor.
 */
export function SubscriptionSummary({
  summary,
  onChangeSeats,
  onCompletePayment,
}: {
  summary: SubscriptionSummaryView;
  onChangeSeats(seats: number): void;
  /** Runs the waiting payment's 3-D Secure again (the change waiting for it). */
  onCompletePayment(): void;
}) {
  const period = summary.interval === 'year' ? 'year' : 'month';
  const money = (cents: number) => formatMoney(cents, summary.currency);
  const items = [
    { key: 'plan', label: 'Plan', children: summary.planName ?? '—' },
    { key: 'status', label: 'Status', children: STATE_LABEL[summary.state] },
    ...(summary.seats !== null
      ? [{ key: 'seats', label: 'Users', children: <span data-testid="summary-seats">{summary.seats}</span> }]
      : []),
    ...(summary.pricePerPeriod !== null
      ? [
          {
            key: 'price',
            label: 'Price',
            children: (
              <span data-testid="summary-price">{`${money(summary.pricePerPeriod)} per ${period}`}</span>
            ),
          },
        ]
      : []),
    ...(summary.state === 'trial' && summary.trialEnd
      ? [{ key: 'trial', label: 'Trial ends', children: formatUnixDate(summary.trialEnd) }]
      : []),
    ...(summary.cancelAt
      ? [{ key: 'until', label: 'Valid till', children: formatUnixDate(summary.cancelAt) }]
      : []),
    ...(summary.nextCharge
      ? [
          {
            key: 'next',
            label: 'Next charge',
            children: (
              <span data-testid="summary-next-charge">
                {money(summary.nextCharge.amount)}
                {summary.nextCharge.date !== null ? ` on ${formatUnixDate(summary.nextCharge.date)}` : ''}
                {summary.nextCharge.credit > 0
                  ? ` (${MSG.afterCredit(money(summary.nextCharge.credit))})`
                  : ''}
              </span>
            ),
          },
        ]
      : []),
  ];

  return (
    <div className="subscription-facts" data-testid="subscription-summary">
      <Descriptions size="small" column={1} items={items} />
      {summary.pendingChange && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          data-testid="pending-change"
          title={MSG.pendingChangeNotice}
          action={
            summary.canManage && summary.paymentAction?.paymentIntent ? (
              <Button size="small" onClick={onCompletePayment}>
                Complete payment
              </Button>
            ) : summary.paymentAction?.hostedInvoiceUrl ? (
              <a href={summary.paymentAction.hostedInvoiceUrl}>Complete payment</a>
            ) : undefined
          }
        />
      )}
      {summary.canManage && summary.seatsAdjustable && summary.seats !== null && !summary.pendingChange && (
        <SeatsEditor summary={summary} onChange={onChangeSeats} />
      )}
      {!summary.canManage && summary.state !== 'not_subscribed' && <Tag>{MSG.billingOwnerOnly}</Tag>}
      <Link to="/user/settings/billing-history">Billing history</Link>
    </div>
  );
}

function SeatsEditor({
  summary,
  onChange,
}: {
  summary: SubscriptionSummaryView;
  onChange(seats: number): void;
}) {
  const [text, setText] = useState(String(summary.seats));
  // A whole number as typed (antd's InputNumber, whose styles alone were 31 kB of the page, is not
  // needed for one): anything else is the catalogue's "positive integers" message.
  const value = /^\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : null;
  const error = value === summary.seats ? null : seatsError(value, summary);
  return (
    <form
      className="seats-editor"
      onSubmit={(event) => {
        event.preventDefault();
        if (value !== null && !error) onChange(value);
      }}
    >
      <PlainField id="plan-seats" label="Users on this plan" message={error ?? undefined}>
        <Input
          id="plan-seats"
          inputMode="numeric"
          className="seats-input"
          value={text}
          status={error ? 'error' : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? messageId('plan-seats') : undefined}
          onChange={(event) => setText(event.target.value)}
        />
      </PlainField>
      <Button htmlType="submit" disabled={value === summary.seats || Boolean(error)}>
        Change users
      </Button>
    </form>
  );
}
