import { Button, Result } from 'antd';
import { Link } from 'react-router-dom';
import { MSG } from '@helix/shared';
import { PageTitle } from '../../ui/page-title';

/** /guest-success/...: a visitor registered with a trial; they sign in to start. */
export function GuestSuccessPage() {
  return (
    <section className="page">
      <PageTitle title="Welcome to Helix" />
      <Result
        status="success"
        title={MSG.registrationSuccess}
        subTitle="Your 30-day trial has started. Log in to open your models."
        data-testid="guest-success"
        extra={
          <Link to="/login">
            <Button type="primary">Go to login</Button>
          </Link>
        }
      />
    </section>
  );
}
