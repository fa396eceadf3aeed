import { Alert, Button } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { MSG } from '@helix/shared';
import { subscriptionDetail } from '../../api/billing.api';
import { bannerFor, CLICK_HERE } from '../../billing/banner';
import { sessionSubscriptionState } from '../../billing/subscription-state';
import { goToProvider, portalUrl } from '../../billing/provider-redirect';
import { hasPermission } from '../../session/session-user';
import { useSessionUser } from '../../session/use-session';
import '../../pages/plans/plans.css';

/**
 * The three banners of accounts 8 (payment failed, deactivated, cancelled), for a tenant's users in the
 * app layout. The links need Subscription.listing.view; without it the words still show.
 */
export function SubscriptionBanner() {
  const user = useSessionUser();
  const [busy, setBusy] = useState(false);
  if (!user || user.isAdmin) return null;
  const banner = bannerFor(sessionSubscriptionState(user.subscription));
  if (!banner) return null;
  const canManage = hasPermission(user, 'Subscription.listing.view');

  const openPortal = async () => {
    if (busy) return;
    setBusy(true);
    try {
      goToProvider(await subscriptionDetail({ returnUrl: portalUrl(window.location.pathname) }));
    } catch {
      // The client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };

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
              <Button type="link" className="inline-link" onClick={() => void openPortal()} loading={busy}>
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
      <Button size="small" onClick={() => void openPortal()} loading={busy}>
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
