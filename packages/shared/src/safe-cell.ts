/**
 * A spreadsheet reads a cell that starts with =, +, -, @, a tab or a carriage return as a formula (CSV
 * injection). Every exported cell goes through this: such a value gets a leading apostrophe, so it is
 * shown as the text it is and never evaluated.
 */
const FORMULA_START = /^[=+\-@\t\r']/;

export const safeCell = (value: string | number | null | undefined): string => {
  const text = value === null || value === undefined ? '' : String(value);
  return FORMULA_START.test(text) ? `'${text}` : text;
};
