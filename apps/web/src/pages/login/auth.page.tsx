import { lazy, Suspense } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useBrandParam, withBrand } from '../../routing/use-brand';
import { PageTitle } from '../../ui/page-title';
import type * as SignupFlowModule from '../signup/signup-flow';
import type { SignupStep } from '../signup/signup-flow';
import { AuthTabs } from './auth-tabs';
import { LoginForm } from './login.form';

// The sign-up steps (with the plan list) are their own chunk: /login does not download them.
let signupModule: typeof SignupFlowModule | null = null;
/**
 * Loads the sign-up steps; the sign-up routes wait for it (routes.tsx), so a server-rendered /signup or
 * /choose-subscription is replaced by the same page, never by its loading line (and the build draws
 * the steps, not the line).
 */
export const loadSignupFlow = () =>
  import('../signup/signup-flow').then((m) => {
    signupModule = m;
    return m;
  });
const LazySignupFlow = lazy(() => loadSignupFlow().then((m) => ({ default: m.SignupFlow })));

interface AuthPageProps {
  tab: 'login' | 'signup';
  /** Sign-up step: 0 the form, 1 the plans (/choose-subscription jumps here). */
  step?: SignupStep;
}

/** Login and sign-up on one screen, as two tabs (accounts 2). */
export function AuthPage({ tab, step = 0 }: AuthPageProps) {
  const brand = useBrandParam();
  const { search } = useLocation();
  // An invitation mailed before the invitation page existed (/signup?token=) opens that page.
  const inviteToken = tab === 'signup' ? new URLSearchParams(search).get('token') : null;
  if (inviteToken) return <Navigate to={`/invitation?token=${encodeURIComponent(inviteToken)}`} replace />;

  return (
    <>
      <PageTitle title={tab === 'login' ? 'Login' : 'Sign Up'} />
      <h1 className="visually-hidden">{tab === 'login' ? 'Login' : 'Sign Up'}</h1>
      <AuthTabs
        active={tab}
        tabs={[
          { key: 'login', label: 'Login', to: `${withBrand('/login', brand)}${search}` },
          { key: 'signup', label: 'Sign Up', to: `${withBrand('/signup', brand)}${search}` },
        ]}
      >
        {/* Only the active form is in the page, so labels such as "Email" are unique. */}
        {tab === 'login' ? (
          <LoginForm />
        ) : signupModule ? (
          // Loaded before the route renders (routes.tsx): no Suspense boundary here, or React would
          // hydrate the steps in a later pass at offscreen priority, after the app counts as hydrated
          // (1-2 s of work at CPU 4x that a tap right after load waited behind).
          <signupModule.SignupFlow step={step} />
        ) : (
          <Suspense
            fallback={
              <p className="auth-tab-loading" role="status">
                Loading…
              </p>
            }
          >
            <LazySignupFlow step={step} />
          </Suspense>
        )}
      </AuthTabs>
    </>
  );
}
