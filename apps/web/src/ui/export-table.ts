import Papa from 'papaparse';
import writeXlsxFile from 'write-excel-file/browser';
import { safeCell } from '@helix/shared/safe-cell';

/** Header plus rows; every cell through safeCell, so none can start a spreadsheet formula. */
export const safeTable = (header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number>>) => [
  header.map((h) => safeCell(h)),
  ...rows.map((row) => row.map((cell) => safeCell(cell))),
];

function download(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Downloads a table as `<baseName>.csv` (papaparse) or `<baseName>.xlsx` (write-excel-file). Every
 * export of the app goes through here; build the rows with safeTable (or safeCell) first.
 */
export async function downloadTable(
  table: string[][],
  baseName: string,
  format: 'csv' | 'xlsx',
  sheet = 'Users',
) {
  if (format === 'csv') {
    download(new Blob([Papa.unparse(table)], { type: 'text/csv;charset=utf-8' }), `${baseName}.csv`);
    return;
  }
  const blob = await writeXlsxFile(table, { sheet }).toBlob();
  download(blob, `${baseName}.xlsx`);
}
