import { Spin } from 'antd';
import { useEffect, useRef } from 'react';
import { MSG } from '@helix/shared';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { validateGoogle } from '../../api/auth.api';
import { loginPath } from '../../api/failure';
import { clearLocalStorage, readBrand, takeRedirect } from '../../session/local-storage';
import { startSession } from '../../session/session';
import { toastError } from '../../ui/notify';
import { PageTitle } from '../../ui/page-title';

type GoogleType = 'login' | 'signup';
const isGoogleType = (v: string | null): v is GoogleType => v === 'login' || v === 'signup';

/**
 * /auth/google: where the API's OAuth callback lands (?code=..&type=.. or ?error=1). The code is
 * exchanged once for a session; is-loggedin continues to the page the user came for, a new account
 * to the plan wizard.
 */
export function GoogleReturnPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // The code is single-use; a second exchange (React's development double effect) would fail.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = params.get('code');
    const type = params.get('type');

    const fail = () => {
      const brand = readBrand();
      toastError(MSG.somethingWentWrong);
      clearLocalStorage();
      void navigate(loginPath(brand), { replace: true });
    };

    if (params.get('error') || !code || !isGoogleType(type)) return fail();
    validateGoogle(type, code)
      .then((answer) => {
        startSession(answer, Boolean(answer.rememberMe));
        const next = answer.authType === 'is-loggedin' ? (takeRedirect() ?? '/') : '/choose-subscription';
        void navigate(next, { replace: true });
      })
      .catch(fail);
  }, [params, navigate]);

  return (
    <main className="page-loading">
      <PageTitle title="Signing in" />
      <Spin size="large" aria-label="Signing in with Google" />
    </main>
  );
}
