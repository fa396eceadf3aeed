import type { ExportTable } from './export-table';

/**
 * Downloads a table as CSV or .xlsx (ui/export-table.ts). The writers (papaparse, write-excel-file)
 * load on the first export, not with the page that offers it: a list's first screen does not pay for
 * them.
 */
export async function downloadTable(
  table: ExportTable,
  baseName: string,
  format: 'csv' | 'xlsx',
  sheet?: string,
): Promise<void> {
  const exporter = await import('./export-table');
  await exporter.downloadTable(table, baseName, format, sheet);
}
