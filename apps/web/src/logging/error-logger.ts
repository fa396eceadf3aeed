/*
 * The page's error reports, sent with a plain fetch rather than the API client: the share page
 * (pages/share/link-page-start.ts) installs this logger and loads neither the client nor the message
 * catalogue it stands on, and a report needs none of its toasts, session effects or error reading.
 */

type Level = 'error' | 'warn' | 'info';

/** A broken page can throw in a loop; the server should get a sample, not a flood. */
const MAX_REPORTS_PER_PAGE = 20;
let reports = 0;

const describe = (error: unknown): string | undefined => {
  if (error instanceof Error) return (error.stack ?? `${error.name}: ${error.message}`).slice(0, 10_000);
  if (error === undefined) return undefined;
  try {
    return JSON.stringify(error).slice(0, 10_000);
  } catch {
    return String(error).slice(0, 10_000);
  }
};

/** POST /api/logs (no session needed), best effort: logging must never produce a toast, a popup or another error. */
export function logError(message: string, error?: unknown, level: Level = 'error'): void {
  if (reports >= MAX_REPORTS_PER_PAGE) return;
  reports += 1;
  const body: { message: string; error?: string; level: Level } = { message: message.slice(0, 2000), level };
  const detail = describe(error);
  if (detail !== undefined) body.error = detail;
  void fetch('/api/logs', {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
    // Sent even when the page is being left (an error while unloading).
    keepalive: true,
  }).catch(() => undefined);
}

/** Uncaught errors and rejections anywhere in the page. API failures are already known to the server. */
export function installGlobalErrorLogger(): void {
  window.addEventListener('error', (event) => {
    logError(event.message || 'Uncaught error', event.error ?? `${event.filename}:${event.lineno}`);
  });
  window.addEventListener('unhandledrejection', (event: PromiseRejectionEvent) => {
    // A failed API call (api/api-error.ts, named so) is already known to the server.
    if ((event.reason as { name?: unknown } | null)?.name === 'ApiError') return;
    logError('Unhandled promise rejection', event.reason);
  });
}
