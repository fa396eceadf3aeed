import { Steps } from 'antd';
import { useState } from 'react';
import { MSG } from '@helix/shared';
import { useNavigate } from 'react-router-dom';
import { logoutOnServer } from '../../api/auth.api';
import { useBrandParam, withBrand } from '../../routing/use-brand';
import { readApiToken } from '../../session/cookies';
import { clearLocalStorage } from '../../session/local-storage';
import { clearLocalSession } from '../../session/session';
import { PlanWizard } from '../subscription/plan-wizard';
import { SignupForm } from './signup.form';

export type SignupStep = 0 | 1;

const STEPS = [{ title: 'Sign Up' }, { title: 'Choose a Subscription' }, { title: 'Finish Up' }];

/** The three-step sign-up: Sign Up, Choose a Subscription, Finish Up (the payment form). */
export function SignupFlow({ step }: { step: SignupStep }) {
  const [paying, setPaying] = useState(false);
  return (
    <div className="signup-flow">
      {/* Not `responsive`: antd would turn the steps vertical by a JavaScript breakpoint on a phone, after
          hydration, moving the whole page the server drew; they stay one row at every width. */}
      <Steps
        size="small"
        responsive={false}
        current={step === 0 ? 0 : paying ? 2 : 1}
        items={STEPS}
        className="signup-steps"
      />
      {step === 0 ? (
        <SignupForm />
      ) : (
        <PlanWizard source="guest" onPhase={(phase) => setPaying(phase === 'pay')} />
      )}
      <AlreadyHaveAccount />
    </div>
  );
}

/** 'Already have an account? Sign in here': start over from a clean browser, at login. */
function AlreadyHaveAccount() {
  const navigate = useNavigate();
  const brand = useBrandParam();
  const target = withBrand('/login', brand);

  const onClick = (event: React.MouseEvent) => {
    event.preventDefault();
    // The request reads the token before the cookies are cleared just below.
    if (readApiToken()) void logoutOnServer().catch(() => undefined);
    clearLocalSession();
    clearLocalStorage();
    void navigate(target);
  };

  return (
    <p className="auth-switch">
      <a href={target} onClick={onClick}>
        {MSG.alreadyHaveAccount}
      </a>
    </p>
  );
}
