import { Button, Image, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { fetchSupportScreenshot } from './support.api';

type State = { status: 'idle' | 'loading' | 'failed' } | { status: 'ready'; url: string };

/** A request's screenshot in the admin list: loaded on demand with the session's token. */
export function SupportScreenshot({ id }: { id: number }) {
  const [state, setState] = useState<State>({ status: 'idle' });
  const url = state.status === 'ready' ? state.url : null;
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);

  if (state.status === 'ready') {
    return <Image src={state.url} alt={`Screenshot of request ${id}`} width={320} />;
  }
  return (
    <>
      <Button
        size="small"
        loading={state.status === 'loading'}
        onClick={() => {
          setState({ status: 'loading' });
          fetchSupportScreenshot(id)
            .then((loaded) => setState({ status: 'ready', url: loaded }))
            .catch(() => setState({ status: 'failed' }));
        }}
      >
        Show screenshot
      </Button>
      {state.status === 'failed' && (
        <Typography.Text type="danger" style={{ marginLeft: 8 }}>
          The screenshot could not be loaded.
        </Typography.Text>
      )}
    </>
  );
}
