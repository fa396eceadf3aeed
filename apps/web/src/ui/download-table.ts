import type { downloadTable as exportNow } from './export-table';

/**
 * Downloads a table as CSV or .xlsx (ui/export-table.ts). The writers (papaparse, write-excel-file)
 * load on the first export, not with the page that offers it: a list's first screen does not pay for
 * them.
 */
export async function downloadTable(...args: Parameters<typeof exportNow>): Promise<void> {
  const exporter = await import('./export-table');
  await exporter.downloadTable(...args);
}
