import { Button, Result } from 'antd';
import { MSG } from '@helix/shared';
import { useNavigate } from 'react-router-dom';
import { PageTitle } from '../../ui/page-title';

export function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <section className="status-page">
      <PageTitle title="Page not found" />
      <Result
        status="404"
        title={<h1 className="status-title">Page not found</h1>}
        subTitle={MSG.pageNotFound}
        extra={
          <Button type="primary" onClick={() => void navigate('/')}>
            Go to home
          </Button>
        }
      />
    </section>
  );
}
