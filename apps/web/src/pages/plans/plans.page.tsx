import { Typography } from 'antd';
import { PageTitle } from '../../ui/page-title';
import { PlanWizard } from '../subscription/plan-wizard';

/** /subscription/plans: the guest catalogue (Buy Now leads to sign-up). */
export function PlansPage({ source }: { source: 'guest' | 'tenant' }) {
  return (
    <section className="page">
      <PageTitle title="Plans" />
      <Typography.Title level={1} className="page-title">
        Choose a Subscription
      </Typography.Title>
      <PlanWizard source={source} />
    </section>
  );
}
