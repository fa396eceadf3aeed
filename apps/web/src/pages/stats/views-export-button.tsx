import { DownloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { MSG } from '@helix/shared';
import { fetchViewsExport } from '../../api/views-usage.api';
import { logError } from '../../logging/error-logger';
import { downloadFile } from '../../ui/download-file';
import { toastError } from '../../ui/notify';

/** The owner's statistics page: this billing period's views per model and per link, as CSV. */
export function ViewsExportButton() {
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      const { blob, fileName } = await fetchViewsExport();
      downloadFile(blob, fileName);
    } catch (error) {
      logError('Statistics: views export failed', error, 'warn');
      toastError(MSG.usageExportFailed);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      icon={<DownloadOutlined />}
      loading={busy}
      onClick={() => void onClick()}
      data-testid="views-export"
    >
      Export this period's views (CSV)
    </Button>
  );
}
