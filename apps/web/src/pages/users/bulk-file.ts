import Papa from 'papaparse';
import { readSheet } from 'read-excel-file/browser';
import { MSG } from '@helix/shared';
import { INVITE_LIMITS, type BulkInviteRow } from '@helix/shared/schemas/invite';

export const BULK_FILE_MAX_BYTES = INVITE_LIMITS.fileMb * 1024 * 1024;
/** A cell longer than this is cut (and then reported as too long by the row check). */
const MAX_CELL = 1000;

export type BulkFileResult = { ok: true; rows: BulkInviteRow[] } | { ok: false; message: string };

const cellText = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  return String(value).slice(0, MAX_CELL);
};

/**
 * Rows from a table of cells. The first row is the header when it names an email column (name, email
 * and note in any order, any case); otherwise the columns are taken as name, email, note. Every cell
 * is text: a formula's text (or its cached result in an .xlsx) is data, never evaluated.
 */
export function rowsFromTable(table: ReadonlyArray<ReadonlyArray<unknown>>): BulkInviteRow[] {
  const cells = table.map((row) => row.map(cellText));
  const header = (cells[0] ?? []).map((c) => c.trim().toLowerCase());
  const hasHeader = header.some((c) => c === 'email' || c === 'e-mail');
  const col = (names: string[], fallback: number) => {
    if (!hasHeader) return fallback;
    const i = header.findIndex((c) => names.includes(c));
    return i;
  };
  const name = col(['name', 'full name'], 0);
  const email = col(['email', 'e-mail'], 1);
  const note = col(['note', 'notes'], 2);
  return cells
    .slice(hasHeader ? 1 : 0)
    .filter((row) => row.some((c) => c.trim() !== ''))
    .map((row) => ({
      name: name >= 0 ? (row[name] ?? '') : '',
      email: email >= 0 ? (row[email] ?? '') : '',
      note: note >= 0 ? (row[note] ?? '') : '',
    }));
}

/** Reads an uploaded .csv (papaparse) or .xlsx (read-excel-file), with the type, size and row caps. */
export async function readBulkFile(file: File): Promise<BulkFileResult> {
  const lower = file.name.toLowerCase();
  const isCsv = lower.endsWith('.csv');
  const isXlsx = lower.endsWith('.xlsx');
  if (!isCsv && !isXlsx) return { ok: false, message: MSG.bulkFileType };
  if (file.size > BULK_FILE_MAX_BYTES)
    return { ok: false, message: MSG.bulkFileTooLarge(INVITE_LIMITS.fileMb) };
  let table: unknown[][];
  try {
    if (isCsv) {
      const parsed = Papa.parse<string[]>(await file.text(), { skipEmptyLines: 'greedy' });
      table = parsed.data;
    } else {
      table = (await readSheet(file)) as unknown[][];
    }
  } catch {
    return { ok: false, message: MSG.bulkFileUnreadable };
  }
  const rows = rowsFromTable(table);
  if (rows.length === 0) return { ok: false, message: MSG.bulkNoRows };
  if (rows.length > INVITE_LIMITS.rows)
    return { ok: false, message: MSG.bulkTooManyRows(INVITE_LIMITS.rows) };
  return { ok: true, rows };
}

export const SAMPLE_CSV =
  'name,email,note\nJane Doe,jane.doe@example.com,Biology teacher\nSam Lee,sam.lee@example.com,\n';
