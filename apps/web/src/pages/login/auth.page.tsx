import { Spin, Tabs } from 'antd';
import { lazy, Suspense } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useBrandParam, withBrand } from '../../routing/use-brand';
import { PageTitle } from '../../ui/page-title';
import type { SignupStep } from '../signup/signup-flow';
import { LoginForm } from './login.form';

// The sign-up steps (with the plan list) are their own chunk: /login does not download them.
const SignupFlow = lazy(() => import('../signup/signup-flow').then((m) => ({ default: m.SignupFlow })));

interface AuthPageProps {
  tab: 'login' | 'signup';
  /** Sign-up step: 0 the form, 1 the plans (/choose-subscription jumps here). */
  step?: SignupStep;
}

/** Login and sign-up on one screen, as two tabs (accounts 2). */
export function AuthPage({ tab, step = 0 }: AuthPageProps) {
  const brand = useBrandParam();
  const navigate = useNavigate();
  const { search } = useLocation();

  return (
    <>
      <PageTitle title={tab === 'login' ? 'Login' : 'Sign Up'} />
      <h1 className="visually-hidden">{tab === 'login' ? 'Login' : 'Sign Up'}</h1>
      <Tabs
        activeKey={tab}
        centered
        // Only the active form is in the page, so labels such as "Email" are unique.
        destroyOnHidden
        onChange={(key) =>
          void navigate({ pathname: withBrand(key === 'login' ? '/login' : '/signup', brand), search })
        }
        items={[
          { key: 'login', label: 'Login', children: <LoginForm /> },
          {
            key: 'signup',
            label: 'Sign Up',
            children: (
              <Suspense fallback={<Spin className="auth-tab-loading" aria-label="Loading" />}>
                <SignupFlow step={step} />
              </Suspense>
            ),
          },
        ]}
      />
    </>
  );
}
