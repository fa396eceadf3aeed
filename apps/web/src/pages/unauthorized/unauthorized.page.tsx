import { Button, Result } from 'antd';
import { MSG } from '@helix/shared';
import { useNavigate } from 'react-router-dom';
import { PageTitle } from '../../ui/page-title';

export function UnauthorizedPage() {
  const navigate = useNavigate();
  return (
    <main className="status-page">
      <PageTitle title="Unauthorized" />
      <Result
        status="403"
        title={<h1 className="status-title">Unauthorized</h1>}
        subTitle={MSG.unauthorizedPage}
        extra={
          <Button type="primary" onClick={() => void navigate('/')}>
            Go to home
          </Button>
        }
      />
    </main>
  );
}
