import Papa from 'papaparse';
import writeXlsxFile from 'write-excel-file/browser';
import { safeCell } from '@helix/shared/safe-cell';
import { downloadFile } from './download-file';

/** One exported cell: text or a number (null is an empty cell). */
export type ExportCell = string | number | null | undefined;

/** A table to export: its header row and its rows, as the page shows them. */
export interface ExportTable {
  header: readonly string[];
  rows: ReadonlyArray<ReadonlyArray<ExportCell>>;
}

/**
 * The CSV of a table, as Excel opens it right: a UTF-8 byte-order mark (without it Excel reads UTF-8
 * as the local code page and shows "JosÃ©"), CRLF line ends, and every cell through safeCell, since a
 * spreadsheet opening a CSV runs a cell that starts with = + - @ as a formula.
 */
export function csvText(table: ExportTable): string {
  const cells = [table.header, ...table.rows].map((row) => row.map((cell) => safeCell(cell)));
  return `\uFEFF${Papa.unparse(cells, { newline: '\r\n' })}`;
}

/**
 * The cells of an .xlsx: text stays text exactly (an .xlsx string cell is never a formula, so no
 * guard apostrophe, which would show), numbers stay numbers.
 */
export function xlsxCells(table: ExportTable) {
  const cell = (value: ExportCell) =>
    typeof value === 'number'
      ? { type: Number, value }
      : { type: String, value: value === null || value === undefined ? '' : String(value) };
  return [
    table.header.map((h) => ({ type: String, value: h, fontWeight: 'bold' as const })),
    ...table.rows.map((row) => row.map(cell)),
  ];
}

/**
 * Downloads a table as `<baseName>.csv` or `<baseName>.xlsx` (write-excel-file). Every export of the
 * app goes through here, with the cells as the page shows them: the formula guard is applied here,
 * for CSV only.
 */
export async function downloadTable(
  table: ExportTable,
  baseName: string,
  format: 'csv' | 'xlsx',
  sheet = 'Users',
) {
  if (format === 'csv') {
    downloadFile(new Blob([csvText(table)], { type: 'text/csv;charset=utf-8' }), `${baseName}.csv`);
    return;
  }
  const blob = await writeXlsxFile(xlsxCells(table), { sheet }).toBlob();
  downloadFile(blob, `${baseName}.xlsx`);
}
