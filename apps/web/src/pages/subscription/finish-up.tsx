import { Alert, Button, Checkbox, Form, Spin, Typography } from 'antd';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { PaymentRequest, Stripe } from '@stripe/stripe-js';
import dayjs from 'dayjs';
import advancedFormat from 'dayjs/plugin/advancedFormat';
import { useEffect, useRef, useState } from 'react';
import { MSG } from '@helix/shared';
import {
  payByCard,
  paymentErrorText,
  startTrial,
  type PaymentOrder,
  type PaymentSource,
} from '../../billing/payment-flows';
import { stripeInstance } from '../../billing/stripe-instance';
import { PaymentsNotConfigured } from '../../billing/stripe-settings';
import { chargeText, formatUsd, planPrice, toCents, TRIAL_DAYS, type Plan } from '../../plans/plan-display';
import { toastError } from '../../ui/notify';
import { ApiError } from '../../api/api-error';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { CardErrorText } from './card-error-text';

dayjs.extend(advancedFormat);

/** The provider's error stays 5 s (accounts 8). */
const PROVIDER_ERROR_SECONDS = 5;

export interface FinishUpProps {
  plan: Plan;
  quantity: number;
  flow: 'trial' | 'card';
  /** A just-registered visitor (auth-type is-register): the guest trial call, and a new customer. */
  guest: boolean;
  onBack(): void;
  onPaid(): void;
  /** Hosted Checkout instead of the card form (card flow only). */
  onHostedCheckout?: () => Promise<void>;
  /** The card already had a free trial (409 TRIAL_ALREADY_USED): the wizard switches to the paid flow. */
  onTrialUsed?: () => void;
  /** A notice above the form (why the trial is not offered any more). */
  notice?: string | null;
}

const stripeOnce = stripeInstance;

/** Finish Up: the payment form of the plan wizard (accounts 2 "Payment form", 4 trial and card flows). */
export function FinishUp(props: FinishUpProps) {
  const [stripe, setStripe] = useState<Promise<Stripe> | null>(null);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    const promise = stripeOnce();
    promise.catch((error: unknown) =>
      setFailed(error instanceof PaymentsNotConfigured ? MSG.cardPaymentNotAvailable : MSG.defaultError),
    );
    setStripe(promise);
  }, []);

  if (failed) {
    return (
      <Alert type="error" showIcon title={failed} action={<Button onClick={props.onBack}>Back</Button>} />
    );
  }
  if (!stripe) return <Spin aria-label="Loading payment form" />;
  return (
    <Elements stripe={stripe}>
      <PaymentForm {...props} />
    </Elements>
  );
}

interface FormValues {
  privacy?: boolean;
}

function PaymentForm({
  plan,
  quantity,
  flow,
  guest,
  onBack,
  onPaid,
  onHostedCheckout,
  onTrialUsed,
  notice,
}: FinishUpProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [form] = Form.useForm<FormValues>();
  const [busy, setBusy] = useState(false);
  const [wallet, setWallet] = useState<PaymentRequest | null>(null);
  // The card's failure under the card field; it stays until the card is edited.
  const [cardError, setCardError] = useState<string | null>(null);
  const amount = planPrice(plan, quantity);
  const order: PaymentOrder = { planId: plan.id, quantity };
  const trial = flow === 'trial';

  const pay = async (source: PaymentSource) => {
    if (!stripe) return;
    setBusy(true);
    setCardError(null);
    try {
      if (trial) await startTrial(stripe, source, order, guest);
      else await payByCard(stripe, source, order);
      onPaid();
    } catch (error) {
      if (error instanceof ApiError && error.code === ERROR_CODES.trialAlreadyUsed && onTrialUsed) {
        // Not a card failure: the plan is charged now instead; the notice says why.
        onTrialUsed();
        throw error;
      }
      const text = paymentErrorText(error);
      setCardError(text);
      toastError(text, PROVIDER_ERROR_SECONDS);
      throw error;
    } finally {
      setBusy(false);
    }
  };
  const payRef = useRef(pay);
  payRef.current = pay;

  // The wallet button: only when the browser can pay with a wallet (canMakePayment). Amounts in cents,
  // usd, country US, Link disabled (accounts 9).
  useEffect(() => {
    if (!stripe) return;
    let live = true;
    const request = stripe.paymentRequest({
      country: 'US',
      currency: 'usd',
      total: { label: plan.name, amount: toCents(amount) },
      requestPayerName: true,
      requestPayerEmail: true,
      disableWallets: ['link'],
    });
    request.on('paymentmethod', (event) => {
      payRef.current({ paymentMethodId: event.paymentMethod.id }).then(
        () => event.complete('success'),
        () => event.complete('fail'),
      );
    });
    void request.canMakePayment().then((result) => {
      if (live && result) setWallet(request);
    });
    return () => {
      live = false;
      setWallet(null);
    };
  }, [stripe, plan.name, amount]);

  const onFinish = async () => {
    const card = elements?.getElement(CardElement);
    if (!card) return;
    await pay({ card }).catch(() => undefined);
  };

  const onWallet = async () => {
    // The privacy tick is needed whichever way the buyer pays.
    const agreed = await form.validateFields(['privacy']).then(
      () => true,
      () => false,
    );
    if (agreed) wallet?.show();
  };

  const price = formatUsd(amount);
  const chargeDate = dayjs().add(TRIAL_DAYS, 'day').format('MMMM, Do YYYY');

  return (
    <div className="finish-up">
      <Typography.Title level={2}>{plan.name}</Typography.Title>
      {notice && <Alert type="info" showIcon title={notice} className="finish-up-notice" />}
      {trial ? (
        <>
          <p className="finish-up-offer">{MSG.trialOffer(plan.name, price)}</p>
          <p className="finish-up-charge" data-testid="charge-text">
            From {chargeDate}: {chargeText(plan, quantity)}
          </p>
        </>
      ) : (
        <p className="finish-up-charge" data-testid="charge-text">
          Today: {chargeText(plan, quantity)}
        </p>
      )}
      <Form form={form} layout="vertical" onFinish={() => void onFinish()} disabled={busy}>
        {wallet && (
          <>
            <Button block size="large" onClick={() => void onWallet()} data-testid="wallet-button">
              Pay with wallet
            </Button>
            <p className="wallet-divider">{MSG.orEnterPaymentDetails}</p>
          </>
        )}
        <Form.Item label="Card details" required>
          <div className={cardError ? 'card-element has-error' : 'card-element'} data-testid="card-element">
            <CardElement
              options={{ hidePostalCode: true, disableLink: true }}
              onChange={() => setCardError(null)}
            />
          </div>
          <CardErrorText message={cardError} />
        </Form.Item>
        <Form.Item
          name="privacy"
          valuePropName="checked"
          rules={[
            {
              validator: (_rule, value) =>
                value ? Promise.resolve() : Promise.reject(new Error(MSG.agreePrivacy)),
            },
          ]}
        >
          <Checkbox>I agree to the Privacy Policy</Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" block size="large" loading={busy} disabled={!stripe}>
          {trial ? 'Start Trial' : 'Subscribe'}
        </Button>
      </Form>
      <div className="finish-up-secondary">
        <Button type="link" onClick={onBack} disabled={busy}>
          Back to plans
        </Button>
        {!trial && onHostedCheckout && (
          <Button type="link" onClick={() => void onHostedCheckout()} disabled={busy}>
            Pay on Stripe&apos;s page instead
          </Button>
        )}
      </div>
    </div>
  );
}
