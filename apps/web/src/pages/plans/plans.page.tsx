import { Typography } from 'antd';
import { PageTitle } from '../../ui/page-title';
import { PlanList } from './plan-list';

/** /subscription/plans (guest catalogue) and /subscription (plan selection when signed in). */
export function PlansPage({ source }: { source: 'guest' | 'tenant' }) {
  return (
    <section className="page">
      <PageTitle title="Plans" />
      <Typography.Title level={1} className="page-title">
        Choose a Subscription
      </Typography.Title>
      <PlanList source={source} />
    </section>
  );
}
