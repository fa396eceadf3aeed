/** A cell longer than this is cut (and then reported as too long by the row check). */
export const MAX_CELL = 1000;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An .xlsx date as a person reads it: 2026-01-11, with the time when it has one (2026-01-11 08:30).
 * A spreadsheet's dates have no time zone; the reader hands them over as UTC.
 */
function dateText(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const day = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
  const h = date.getUTCHours();
  const m = date.getUTCMinutes();
  const s = date.getUTCSeconds();
  if (h === 0 && m === 0 && s === 0) return day;
  return `${day} ${pad(h)}:${pad(m)}${s ? `:${pad(s)}` : ''}`;
}

/**
 * A number as Excel keeps it: at most 15 significant digits, so the binary noise of 0.1 + 0.2
 * (0.30000000000000004) reads 0.3; whole numbers (a phone number, a year) in full, where a General
 * cell would show 4.477E+11.
 */
export function numberText(value: number): string {
  if (!Number.isFinite(value)) return '';
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return value.toFixed(0);
  return String(Number(value.toPrecision(15)));
}

/** Every cell of a bulk file as text. A formula is never evaluated: its text (or cached result) is data. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return dateText(value);
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return String(value).slice(0, MAX_CELL);
}
