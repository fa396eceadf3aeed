import { DownOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import type { ReactNode } from 'react';
import { PopoverMenu } from './popover-menu';

export type ExportFormat = 'csv' | 'xlsx';

const FORMATS = [
  { key: 'csv', label: 'CSV' },
  { key: 'xlsx', label: 'XLSX' },
] as const;

/**
 * A list's Export button and its menu (CSV, XLSX) on the browser's popover (./popover-menu.tsx): the
 * users list, the bulk-invite preview and the newsletter list.
 */
export function ExportMenu({
  onExport,
  disabled,
  loading,
  icon,
  testId,
  align,
}: {
  onExport(format: ExportFormat): void;
  disabled?: boolean;
  loading?: boolean;
  /** An icon before the label; without one, the label ends with the menu's arrow. */
  icon?: ReactNode;
  testId: string;
  align?: 'start' | 'end';
}) {
  return (
    <PopoverMenu
      label="Export"
      align={align}
      items={FORMATS}
      onSelect={(key) => onExport(key as ExportFormat)}
      trigger={(menu) => (
        <Button icon={icon} loading={loading} disabled={disabled} data-testid={testId} {...menu}>
          Export {icon ? null : <DownOutlined />}
        </Button>
      )}
    />
  );
}
