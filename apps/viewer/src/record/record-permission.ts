import { isApiErrorBody } from '@helix/shared/api-error';
import { RECORDING_MAX_SECONDS } from '@helix/shared/embed';
import { MSG } from '@helix/shared/messages';

export type RecordPermission = { ok: true; maxSeconds: number } | { ok: false; message: string };

/** GET ${apiUrl}/api/viewer/record?model=&subscription= (the same ticket the lookup used). */
export function viewerRecordUrl(apiUrl: string, model: string, subscription: string): string {
  const q = new URLSearchParams({ model, subscription });
  return `${apiUrl.replace(/\/+$/, '')}/api/viewer/record?${q.toString()}`;
}

/**
 * Asks the API, when the user presses Record, whether this viewer's user may record now (their role
 * and their plan, read again: a downgrade since the load is refused). Never throws: a refusal or a
 * failure comes back as the message to show.
 */
export async function askToRecord(
  apiUrl: string,
  model: string,
  subscription: string,
  doFetch: typeof fetch = (input, init) => fetch(input, init),
): Promise<RecordPermission> {
  let res: Response;
  try {
    res = await doFetch(viewerRecordUrl(apiUrl, model, subscription), {
      method: 'GET',
      mode: 'cors',
      credentials: 'omit',
      cache: 'no-store',
      headers: { Accept: 'application/json' },
      signal: AbortSignal.timeout(15_000),
    });
  } catch {
    return { ok: false, message: MSG.recordFailed };
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (res.ok && typeof body === 'object' && body !== null && (body as { record?: unknown }).record === true) {
    const max = Number((body as { maxSeconds?: unknown }).maxSeconds);
    const maxSeconds =
      Number.isFinite(max) && max > 0 ? Math.min(max, RECORDING_MAX_SECONDS) : RECORDING_MAX_SECONDS;
    return { ok: true, maxSeconds };
  }
  if (res.status === 401 || res.status === 403) {
    return { ok: false, message: isApiErrorBody(body) ? body.message : MSG.recordNotAllowed };
  }
  return { ok: false, message: MSG.recordFailed };
}
