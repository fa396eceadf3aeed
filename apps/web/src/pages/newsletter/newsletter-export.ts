import dayjs from 'dayjs';
import type { ExportTable } from '../../ui/export-table';
import { downloadTable } from '../../ui/download-table';
import type { Subscriber } from './newsletter.api';

/** The spec's date format for the newsletter table and its export. */
const CREATED_AT_FORMAT = 'YYYY-MM-DD h:mm:ss';

export const formatCreatedAt = (iso: string): string => dayjs(iso).format(CREATED_AT_FORMAT);

const EXPORT_HEADER = ['Email', 'Created At'] as const;

/** Header and rows as the table shows them (the CSV export guards formula-looking cells). */
export function subscriberRows(list: readonly Subscriber[]): ExportTable {
  return {
    header: EXPORT_HEADER,
    rows: list.map((s) => [s.email, formatCreatedAt(s.created_at)]),
  };
}

const exportBaseName = (now = dayjs()) => `newsletter-subscribers-${now.format('YYYY-MM-DD')}`;

export const downloadCsv = (list: readonly Subscriber[]): Promise<void> =>
  downloadTable(subscriberRows(list), exportBaseName(), 'csv');

export const downloadXlsx = (list: readonly Subscriber[]): Promise<void> =>
  downloadTable(subscriberRows(list), exportBaseName(), 'xlsx', 'Subscribers');
