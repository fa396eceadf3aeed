import { Alert, Button } from 'antd';
import { Link } from 'react-router-dom';
import { MSG } from '@helix/shared';
import { bannerFor, CLICK_HERE } from '../../billing/banner';
import { sessionSubscriptionState } from '../../billing/subscription-state';
import { useBillingPortal } from '../../billing/use-billing-portal';
import { abilitiesOf } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import '../../pages/plans/plans.css';

/**
 * The three banners of accounts 8 (payment failed, deactivated, cancelled), for a tenant's users in the
 * app layout. The links need the billing ability (Subscription.listing.view); without it the words
 * still show.
 */
export function SubscriptionBanner() {
  const user = useSessionUser();
  const portal = useBillingPortal();
  // A school's users only; the links with the server's billing ability.
  if (!user || !abilitiesOf(user).subscription) return null;
  const canManage = abilitiesOf(user).billing;
  const actionUrl = user.subscription?.paymentActionUrl ?? null;
  const banner = bannerFor(sessionSubscriptionState(user.subscription));
  if (!banner) return actionUrl ? <PaymentActionBanner url={actionUrl} withLink={canManage} /> : null;

  if (banner.kind === 'payment_failed') {
    const [before, after] = banner.text.split(CLICK_HERE);
    return (
      <Alert
        className="subscription-banner"
        type="error"
        showIcon
        role="alert"
        data-testid="banner-payment-failed"
        title={
          canManage ? (
            <>
              {before}
              <Button type="link" className="inline-link" onClick={portal.open} loading={portal.busy}>
                {CLICK_HERE}
              </Button>
              {after}
            </>
          ) : (
            banner.text
          )
        }
      />
    );
  }

  const renew = canManage ? (
    banner.kind === 'cancelled' ? (
      <Button size="small" onClick={portal.open} loading={portal.busy}>
        {MSG.renewSubscription}
      </Button>
    ) : (
      <Link to="/subscription">{MSG.renewSubscription}</Link>
    )
  ) : undefined;

  if (banner.kind === 'deactivated') {
    return (
      <Alert
        className="subscription-banner"
        type="warning"
        showIcon
        role="alert"
        data-testid="banner-deactivated"
        title={banner.text}
        description={
          <ul className="banner-reasons">
            {banner.reasons.map((reason) => (
              <li key={reason}>{reason}</li>
            ))}
          </ul>
        }
        action={renew}
      />
    );
  }
  return (
    <Alert
      className="subscription-banner"
      type="info"
      showIcon
      role="alert"
      data-testid="banner-cancelled"
      title={banner.text}
      action={renew}
    />
  );
}

/**
 * A payment waits for the bank's confirmation (3-D Secure) that the customer left unfinished: the
 * hosted invoice page completes it (issue 15). The plan stays as it was until then.
 */
function PaymentActionBanner({ url, withLink }: { url: string; withLink: boolean }) {
  const [before, after] = MSG.paymentActionBanner.split(CLICK_HERE);
  return (
    <Alert
      className="subscription-banner"
      type="warning"
      showIcon
      role="alert"
      data-testid="banner-payment-action"
      title={
        withLink ? (
          <>
            {before}
            <a href={url}>{CLICK_HERE}</a>
            {after}
          </>
        ) : (
          MSG.paymentActionBanner
        )
      }
    />
  );
}
