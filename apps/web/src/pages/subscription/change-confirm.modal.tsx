import { Alert, Button, Modal } from 'antd';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { ChangePreviewView, PaymentActionView } from '@helix/shared/schemas/billing';
import { MSG } from '@helix/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { billingKeys, changePreviewQuery } from '../../billing/billing.queries';
import { paymentErrorText } from '../../billing/card-error';
import {
  payChangeInvoice,
  runChange,
  type ChangeOutcome,
  type ChangeRequest,
  type ExpectedOrder,
} from '../../billing/change-flow';
import { formatMoney, formatShortDate } from '../../billing/money';
import { confirmLabel, dueNowText, nextChargeText } from '../../billing/preview-text';
import { stripeInstance } from '../../billing/stripe-instance';
import { QueryFailed, QueryLoading } from '../../ui/query-state';
import { CardErrorText } from './card-error-text';

export interface ChangeTarget {
  request: ChangeRequest;
  /** The dialog's title (its accessible name), e.g. 'Change to Enterprise Monthly'. */
  title: string;
}

type Phase =
  | { kind: 'confirm'; error?: string }
  | { kind: 'paying' }
  | { kind: 'needs-card'; message: string; action: PaymentActionView };

type PreviewState =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; preview: ChangePreviewView };

/**
 * Every plan or seat change is confirmed here after the buyer has seen what it charges now (the
 * server's preview: amount due now, proration lines, a trial that ends). Confirm makes the change;
 * a bank's 3-D Secure challenge shows at once (Stripe.js), and the page hears "applied" only once the
 * payment went through and the summary no longer shows the change waiting. A decline, or a failed or
 * cancelled challenge, keeps the dialog open with a card field and the reason under it.
 */
export function ChangeConfirmModal({
  target,
  onClose,
  onSettled,
}: {
  target: ChangeTarget | null;
  onClose(): void;
  /** The change is in force ('applied') or paid and still being applied ('pending'). */
  onSettled(outcome: 'applied' | 'pending'): void;
}) {
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<Phase>({ kind: 'confirm' });
  useEffect(() => {
    if (target) setPhase({ kind: 'confirm' });
  }, [target]);

  const previewQuery = useQuery({
    ...changePreviewQuery(target?.request ?? { kind: 'seats', quantity: 0 }),
    enabled: target !== null,
  });
  // Each opening shows the server's answer of now, never one from an earlier opening.
  const preview: PreviewState = previewQuery.isFetching
    ? { status: 'loading' }
    : previewQuery.isError
      ? { status: 'failed', message: paymentErrorText(previewQuery.error) }
      : previewQuery.isSuccess
        ? { status: 'ready', preview: previewQuery.data }
        : { status: 'loading' };

  const finish = (outcome: ChangeOutcome) => {
    if (outcome.status === 'needs-card')
      return setPhase({ kind: 'needs-card', message: outcome.message, action: outcome.action });
    // The invoices (and any preview) as they are after the change.
    void queryClient.invalidateQueries({ queryKey: billingKeys.all });
    onSettled(outcome.status);
  };

  const confirm = async () => {
    if (!target) return;
    setPhase({ kind: 'paying' });
    try {
      finish(await runChange(stripeInstance, target.request, expectedOrder));
    } catch (error) {
      setPhase({ kind: 'confirm', error: paymentErrorText(error) });
    }
  };

  const busy = phase.kind === 'paying';
  const ready = preview.status === 'ready' ? preview.preview : null;
  // What the summary shows once the change is in force.
  const expectedOrder = ready ? { planId: ready.planId, seats: ready.seats } : undefined;

  return (
    <Modal
      open={target !== null}
      title={target?.title}
      onCancel={busy ? undefined : onClose}
      closable={!busy}
      mask={{ closable: false }}
      destroyOnHidden
      footer={
        phase.kind === 'needs-card' ? null : (
          <>
            <Button onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button type="primary" onClick={() => void confirm()} loading={busy} disabled={!ready}>
              {ready ? confirmLabel(ready) : 'Confirm'}
            </Button>
          </>
        )
      }
    >
      {preview.status === 'loading' && <QueryLoading label="Loading the price" rows={2} />}
      {preview.status === 'failed' && (
        <QueryFailed message={preview.message} onRetry={() => void previewQuery.refetch()} />
      )}
      {ready && <PreviewDetails preview={ready} />}
      {busy && <p role="status">{MSG.confirmingPayment}</p>}
      {phase.kind === 'confirm' && phase.error && (
        <Alert type="error" showIcon role="alert" title={phase.error} />
      )}
      {phase.kind === 'needs-card' && (
        <Elements stripe={stripeInstance()}>
          <RetryCard
            message={phase.message}
            onPay={async (pay) => {
              try {
                finish(await pay(phase.action, expectedOrder));
              } catch (error) {
                setPhase({ kind: 'needs-card', message: paymentErrorText(error), action: phase.action });
              }
            }}
          />
        </Elements>
      )}
    </Modal>
  );
}

function PreviewDetails({ preview }: { preview: ChangePreviewView }) {
  const next = nextChargeText(preview);
  const lines = preview.lines.filter((line) => line.amount !== 0);
  return (
    <div className="change-preview">
      <p className="change-due-now" data-testid="amount-due-now">
        <strong>{dueNowText(preview)}</strong>
      </p>
      {lines.length > 0 && (
        <ul className="change-lines" aria-label="What is charged now">
          {lines.map((line, index) => (
            <li key={index}>
              <span>
                {line.description ?? (line.proration ? 'Adjustment for the rest of this period' : 'Plan')}
                {line.periodStart !== null && line.periodEnd !== null && (
                  <span className="change-line-period">
                    {' '}
                    ({formatShortDate(line.periodStart)} – {formatShortDate(line.periodEnd)})
                  </span>
                )}
              </span>
              <span className="change-line-amount">{formatMoney(line.amount, preview.currency)}</span>
            </li>
          ))}
        </ul>
      )}
      {next && <p data-testid="next-charge-preview">{next}</p>}
    </div>
  );
}

/** The card field after a decline or a failed challenge: the reason stays under it until the card is edited. */
function RetryCard({
  message,
  onPay,
}: {
  message: string;
  onPay(pay: (action: PaymentActionView, expected?: ExpectedOrder) => Promise<ChangeOutcome>): Promise<void>;
}) {
  const stripe = useStripe();
  const elements = useElements();
  const [error, setError] = useState<string | null>(message);
  const [busy, setBusy] = useState(false);
  useEffect(() => setError(message), [message]);

  const pay = async () => {
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) return;
    setBusy(true);
    try {
      await onPay((action, expected) => payChangeInvoice(stripe, action, { card, expected }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="retry-card">
      <p>Pay with another card:</p>
      <div className={error ? 'card-element has-error' : 'card-element'} data-testid="card-element">
        <CardElement options={{ hidePostalCode: true, disableLink: true }} onChange={() => setError(null)} />
      </div>
      <CardErrorText message={error} />
      <Button type="primary" block onClick={() => void pay()} loading={busy} disabled={!stripe}>
        Pay
      </Button>
    </div>
  );
}
