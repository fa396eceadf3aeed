import { useQuery } from '@tanstack/react-query';
import { Button, Image, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { supportScreenshotQuery } from './support.queries';

/** A request's screenshot in the admin list: loaded on demand with the session's token. */
export function SupportScreenshot({ id }: { id: number }) {
  const [asked, setAsked] = useState(false);
  const screenshot = useQuery({ ...supportScreenshotQuery(id), enabled: asked });
  const url = screenshot.data ?? null;
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);

  if (url) {
    return <Image src={url} alt={`Screenshot of request ${id}`} width={320} />;
  }
  return (
    <>
      <Button
        size="small"
        loading={screenshot.isFetching}
        onClick={() => (asked ? void screenshot.refetch() : setAsked(true))}
      >
        Show screenshot
      </Button>
      {screenshot.isError && !screenshot.isFetching && (
        <Typography.Text type="danger" style={{ marginLeft: 8 }}>
          The screenshot could not be loaded.
        </Typography.Text>
      )}
    </>
  );
}
