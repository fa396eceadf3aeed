import { Result, Spin } from 'antd';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { MSG } from '@helix/shared';
import { ApiError } from '../../api/api-error';
import { logout, refreshSessionUser } from '../../session/session';
import { toastError } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';
import { SUCCESS_WAIT_MS, successTarget } from './success-target';

/**
 * /success, /success/subscribe(/:planId), /success/unsubscribe and /success/:status?/:productId?: wait
 * 5 s (the provider's webhook lands meanwhile), refresh the user with GET /user/info, then go on. A
 * failed refresh shows the error and logs out (accounts 8).
 */
export function SuccessPage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      refreshSessionUser()
        .then(() => {
          if (live) void navigate(successTarget(pathname), { replace: true });
        })
        .catch((error: unknown) => {
          if (!live) return;
          toastError(error instanceof ApiError ? error.message : MSG.defaultError);
          void logout();
        });
    }, SUCCESS_WAIT_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [pathname, navigate]);

  return (
    <section className="page">
      <PageTitle title="Payment" />
      <Result
        status="success"
        title="Thank you!"
        subTitle={MSG.successRedirecting}
        extra={<Spin aria-label="Updating your subscription" />}
        data-testid="payment-success"
      />
    </section>
  );
}
