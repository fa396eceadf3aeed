/**
 * The one error shape every API failure answers with. `code` is stable and machine-readable
 * (error-codes.ts lists them; schemas/outbox.ts says which are "retry later").
 */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  code: string;
  message: string;
  /** A 409 VERSION_CONFLICT: the record as it is now. */
  current?: unknown;
  /** Field errors, set by the web forms onto their fields. */
  errors?: Record<string, string>;
}

export const isApiErrorBody = (value: unknown): value is ApiErrorBody =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ApiErrorBody).statusCode === 'number' &&
  typeof (value as ApiErrorBody).message === 'string';
