import { Result, Typography } from 'antd';
import { MSG } from '@helix/shared';
import { PageTitle } from '../ui/page-title';

/** A screen a later issue builds. It says so instead of showing made-up data. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <section className="page">
      <PageTitle title={title} />
      <Typography.Title level={1} className="page-title">
        {title}
      </Typography.Title>
      <Result status="info" title={MSG.notAvailableYet} data-testid="not-available" />
    </section>
  );
}
