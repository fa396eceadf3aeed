/**
 * Toasts, callable from anywhere (the API client included). antd's message machinery is imported on
 * the first toast, not with the entry chunk (see ./themed.tsx); a page that shows a toast has antd
 * loaded already, so the import resolves at once.
 */

/** Server and failure messages stay up long enough to read and act on (accounts 8). */
const ERROR_TOAST_SECONDS = 15;

type Kind = 'error' | 'success' | 'info';

function toast(kind: Kind, text: string, seconds: number): void {
  void import('./toasts').then(({ message }) =>
    // Keyed by text: the same message from several calls shows once, not stacked.
    message[kind]({ content: text, duration: seconds, key: `${kind}:${text}` }),
  );
}

export const toastError = (text: string, seconds = ERROR_TOAST_SECONDS): void =>
  toast('error', text, seconds);

export const toastSuccess = (text: string, seconds = 5): void => toast('success', text, seconds);

export const toastInfo = (text: string, seconds = 5): void => toast('info', text, seconds);
