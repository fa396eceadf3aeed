import type { FormInstance } from 'antd';
import { ApiError, isFieldErrors } from '../api/api-error';

export interface FieldError {
  name: string;
  errors: string[];
}

/**
 * Server field errors (`errors: { field: message }`) for the fields this form has. A string `errors`,
 * or a field the form does not show, is left to the toast (see applyServerErrors).
 */
export function toFieldErrors(errors: unknown, fields: readonly string[]): FieldError[] {
  if (!isFieldErrors(errors)) return [];
  return Object.entries(errors)
    .filter(([name]) => fields.includes(name))
    .map(([name, message]) => ({ name, errors: [message] }));
}

/**
 * Shows the server's field errors under this form's fields. When every one of them has its field, the
 * failure is marked shown (the client then does not toast it too); otherwise the toast carries it.
 */
export function applyServerErrors(form: FormInstance, error: unknown, fields: readonly string[]): void {
  if (!(error instanceof ApiError)) return;
  form.setFields(placeServerErrors(error, fields));
}

/**
 * The server's field errors for a form that keeps its messages itself (pages/login/login.form.tsx),
 * marked shown as applyServerErrors does.
 */
export function placeServerErrors(error: unknown, fields: readonly string[]): FieldError[] {
  if (!(error instanceof ApiError)) return [];
  const placed = toFieldErrors(error.errors, fields);
  if (placed.length > 0 && placed.length === Object.keys(error.errors ?? {}).length) error.shownInForm = true;
  return placed;
}
