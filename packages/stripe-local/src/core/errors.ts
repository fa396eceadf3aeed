/** Stripe's error object, as the API answers it: `{ error: { type, code, param, message, ... } }`. */
export type StripeErrorType =
  'invalid_request_error' | 'card_error' | 'idempotency_error' | 'api_error' | 'authentication_error';

export interface StripeErrorBody {
  type: StripeErrorType;
  message: string;
  code?: string;
  param?: string;
  decline_code?: string;
  doc_url?: string;
  [extra: string]: unknown;
}

export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
  }

  toJSON(): { error: StripeErrorBody } {
    return { error: this.body };
  }
}

const docUrl = (code: string) => `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`;

export const invalidRequest = (message: string, extra: Partial<StripeErrorBody> = {}, status = 400) =>
  new StripeError(status, {
    type: 'invalid_request_error',
    message,
    ...(extra.code ? { doc_url: docUrl(extra.code) } : {}),
    ...extra,
  });

export const unknownParameter = (param: string) =>
  invalidRequest(`Received unknown parameter: ${param}`, { code: 'parameter_unknown', param });

export const missingParameter = (param: string) =>
  invalidRequest(`Missing required param: ${param}.`, { code: 'parameter_missing', param });

export const invalidParameter = (param: string, message: string) =>
  invalidRequest(message, { code: 'parameter_invalid', param });

export const resourceMissing = (kind: string, id: string, param = 'id') =>
  invalidRequest(`No such ${kind}: '${id}'`, { code: 'resource_missing', param }, 404);

export const authentication = (message: string) =>
  new StripeError(401, { type: 'invalid_request_error', message });

export const idempotencyError = (message: string, status = 400) =>
  new StripeError(status, { type: 'idempotency_error', message });
