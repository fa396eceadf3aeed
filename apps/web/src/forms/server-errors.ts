import type { FormInstance } from 'antd';
import { ApiError, isFieldErrors } from '../api/api-error';

export interface FieldError {
  name: string;
  errors: string[];
}

/**
 * Server field errors (`errors: { field: message }`) for the fields this form has. A string `errors`,
 * or a field the form does not show, is ignored: the toast already carries the server's message.
 */
export function toFieldErrors(errors: unknown, fields: readonly string[]): FieldError[] {
  if (!isFieldErrors(errors)) return [];
  return Object.entries(errors)
    .filter(([name]) => fields.includes(name))
    .map(([name, message]) => ({ name, errors: [message] }));
}

export function applyServerErrors(form: FormInstance, error: unknown, fields: readonly string[]): void {
  if (error instanceof ApiError) form.setFields(toFieldErrors(error.errors, fields));
}
