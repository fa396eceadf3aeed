/** The one error shape every API failure answers with. */
export interface ApiErrorBody {
  statusCode: number;
  error: string;
  message: string;
  /** Field errors, set by the web forms onto their fields. */
  errors?: Record<string, string>;
}

export const isApiErrorBody = (value: unknown): value is ApiErrorBody =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ApiErrorBody).statusCode === 'number' &&
  typeof (value as ApiErrorBody).message === 'string';
