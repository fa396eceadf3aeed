import Papa from 'papaparse';
import { readSheet } from 'read-excel-file/universal';
import { MSG } from '../messages.ts';
import { INVITE_LIMITS, type CheckedRow } from '../schemas/invite.ts';
import { cellText, MAX_CELL } from './cell-text.ts';
import { decodeText, encodingLabel } from './decode-text.ts';

/**
 * Bulk invite files as schools have them (.csv from Excel, Google Forms, Numbers, LibreOffice; .xlsx):
 * bytes in, a table of text cells, then rows of name, e-mail and note with the spreadsheet row each
 * came from. Pure (no DOM, no Node API): the web page reads files with it and a server can too.
 * What is accepted is listed in docs/bulk-invite.md; keep the two together.
 */

export const BULK_FILE_MAX_BYTES = INVITE_LIMITS.fileMb * 1024 * 1024;

/** One row of a spreadsheet: its number as the spreadsheet shows it (the header is row 1) and its cells. */
export interface TableRow {
  line: number;
  cells: string[];
}

/** One person to invite, as read; the row check (checkInviteRows) says what is wrong with it. */
export interface BulkFileRow {
  line: number;
  name: string;
  email: string;
  note: string;
}

type BulkColumn = 'name' | 'firstName' | 'lastName' | 'email' | 'note';

/**
 * Header names, compared without case, accents, spaces or punctuation ("E-mail address:" is
 * "emailaddress"). Any other column (Timestamp, Class, ...) is ignored.
 */
const BULK_HEADERS: Record<BulkColumn, readonly string[]> = {
  email: ['Email', 'E-mail', 'Email address', 'E-mail address', 'Mail', 'Mail address'],
  name: ['Name', 'Full name'],
  firstName: ['First name', 'Given name', 'Forename'],
  lastName: ['Last name', 'Surname', 'Family name'],
  note: ['Note', 'Notes', 'Comment', 'Comments'],
};

const headerKey = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');

const HEADER_LOOKUP = new Map<string, BulkColumn>(
  (Object.entries(BULK_HEADERS) as Array<[BulkColumn, readonly string[]]>).flatMap(([column, names]) =>
    names.map((n) => [headerKey(n), column] as const),
  ),
);

/** The header cell used for each column; null when the file has no header (name, email, note). */
type BulkColumns = Partial<Record<BulkColumn, string>> | null;

type TableRead =
  { ok: true; rows: BulkFileRow[]; columns: BulkColumns; ignored: string[] } | { ok: false; message: string };

export type BulkFileRead =
  | {
      ok: true;
      format: 'csv' | 'xlsx';
      rows: BulkFileRow[];
      /** The encoding of a .csv (WHATWG name); null for .xlsx. */
      encoding: string | null;
      columns: BulkColumns;
      /** Header cells of columns that are not read. */
      ignored: string[];
      /** For the person who uploaded the file: guessed encoding, unreadable characters, ignored columns. */
      warnings: string[];
    }
  | { ok: false; message: string };

const SEP_LINE = /^"?sep=([^\r\n"])"?[^\S\r\n]*(?:\r\n|\n|\r|$)/i;
const DELIMITERS = [',', ';', '\t', '|'] as const;

/** The delimiter of a CSV: the one used most in its first line outside quotes (a comma on a tie). */
function guessDelimiter(text: string): string {
  let quoted = false;
  const counts = new Map<string, number>();
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && (DELIMITERS as readonly string[]).includes(ch))
      counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best = ',';
  for (const d of DELIMITERS) if ((counts.get(d) ?? 0) > (counts.get(best) ?? 0)) best = d;
  return best;
}

/**
 * A CSV's rows. A first line `sep=;` (which Excel writes and reads) names the delimiter and is not a
 * row; otherwise the delimiter is guessed from the first line. CRLF, LF or CR line ends; quoted cells
 * may hold delimiters and line breaks; blank rows are skipped (their numbers are kept).
 */
function parseCsv(text: string): TableRow[] {
  const sep = SEP_LINE.exec(text);
  const body = sep ? text.slice(sep[0].length) : text;
  const delimiter = sep?.[1] ?? guessDelimiter(body);
  const parsed = Papa.parse<string[]>(body, { delimiter, skipEmptyLines: false });
  return parsed.data
    .map((cells, i) => ({ line: i + 1, cells: cells.map((c) => c.slice(0, MAX_CELL)) }))
    .filter((row) => row.cells.some((c) => c.trim() !== ''));
}

/** The first sheet of an .xlsx, every cell as text (dates as 2026-01-11, numbers without float noise). */
export async function parseXlsx(bytes: Uint8Array): Promise<TableRow[]> {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const sheet = await readSheet(buffer);
  return sheet
    .map((cells, i) => ({ line: i + 1, cells: cells.map(cellText) }))
    .filter((row) => row.cells.some((c) => c.trim() !== ''));
}

const looksLikeEmail = (text: string) => /\S@\S/.test(text);

/**
 * Rows from a table. The first row is the header when one of its cells names an e-mail column
 * (BULK_HEADERS); "First name" and "Last name" are joined when there is no full name. A first row
 * without such a header but with an address in it means a file without header: name, email, note.
 */
function rowsFromTable(table: readonly TableRow[]): TableRead {
  const [first, ...rest] = table;
  if (!first) return { ok: false, message: MSG.bulkNoRows };
  const found = new Map<BulkColumn, number>();
  const ignored: string[] = [];
  first.cells.forEach((cell, i) => {
    const column = HEADER_LOOKUP.get(headerKey(cell));
    if (column && !found.has(column)) found.set(column, i);
    else if (cell.trim()) ignored.push(cell.trim());
  });
  if (!found.has('email')) {
    if (!first.cells.some(looksLikeEmail)) return { ok: false, message: MSG.bulkNoEmailColumn };
    const rows = table.map(({ line, cells }) => ({
      line,
      name: cells[0] ?? '',
      email: cells[1] ?? '',
      note: cells[2] ?? '',
    }));
    return { ok: true, rows, columns: null, ignored: [] };
  }
  const at = (cells: string[], column: BulkColumn) => {
    const i = found.get(column);
    return i === undefined ? '' : (cells[i] ?? '').trim();
  };
  const rows = rest.map(({ line, cells }) => ({
    line,
    name: at(cells, 'name') || [at(cells, 'firstName'), at(cells, 'lastName')].filter(Boolean).join(' '),
    email: at(cells, 'email'),
    note: at(cells, 'note'),
  }));
  const columns = Object.fromEntries([...found].map(([column, i]) => [column, first.cells[i]!.trim()]));
  return { ok: true, rows, columns, ignored };
}

const isZip = (bytes: Uint8Array) =>
  bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/** Reads an uploaded .csv or .xlsx: type, size and row caps, encoding, header, rows. */
export async function readBulkFile(file: { name: string; bytes: Uint8Array }): Promise<BulkFileRead> {
  const lower = file.name.toLowerCase();
  if (!lower.endsWith('.csv') && !lower.endsWith('.xlsx')) return { ok: false, message: MSG.bulkFileType };
  if (file.bytes.byteLength > BULK_FILE_MAX_BYTES) {
    return { ok: false, message: MSG.bulkFileTooLarge(INVITE_LIMITS.fileMb) };
  }
  // What the bytes are decides, not the name: an .xlsx renamed .csv is still read.
  const format = isZip(file.bytes) ? 'xlsx' : 'csv';
  if (format === 'csv' && lower.endsWith('.xlsx')) return { ok: false, message: MSG.bulkFileUnreadable };
  const warnings: string[] = [];
  let table: TableRow[];
  let encoding: string | null = null;
  try {
    if (format === 'xlsx') {
      table = await parseXlsx(file.bytes);
    } else {
      const decoded = decodeText(file.bytes);
      encoding = decoded.encoding;
      if (!decoded.unicode) warnings.push(MSG.bulkReadAs(encodingLabel(decoded.encoding)));
      if (decoded.text.includes('\uFFFD')) warnings.push(MSG.bulkUnreadableCharacters);
      table = parseCsv(decoded.text);
    }
  } catch {
    return { ok: false, message: MSG.bulkFileUnreadable };
  }
  const read = rowsFromTable(table);
  if (!read.ok) return read;
  if (read.rows.length === 0) return { ok: false, message: MSG.bulkNoRows };
  if (read.rows.length > INVITE_LIMITS.rows)
    return { ok: false, message: MSG.bulkTooManyRows(INVITE_LIMITS.rows) };
  if (read.ignored.length > 0) warnings.push(MSG.bulkIgnoredColumns(read.ignored.join(', ')));
  return {
    ok: true,
    format,
    rows: read.rows,
    encoding,
    columns: read.columns,
    ignored: read.ignored,
    warnings,
  };
}

/** The rows with problems and why, to fix in the spreadsheet (Row is the spreadsheet's row number). */
export function problemRowsTable(
  checked: readonly CheckedRow[],
  lines: readonly number[],
): Array<Array<string | number>> {
  return [
    ['Row', 'Name', 'Email', 'Note', 'Problems'],
    ...checked
      .filter((r) => r.problems.some((p) => p !== 'duplicate'))
      .map((r) => [lines[r.index] ?? r.index + 1, r.name, r.email, r.note, r.problemText.join('; ')]),
  ];
}

/** The sample file offered on the page: UTF-8 (the page adds a byte-order mark for Excel). */
export const SAMPLE_CSV =
  'Name,Email,Note\r\nJane Doe,jane.doe@example.com,Biology teacher\r\nJosé García,jose.garcia@example.com,\r\n';
