import { message as staticMessage } from 'antd';

type MessageInstance = ReturnType<typeof staticMessage.useMessage>[0];

/** Server and failure messages stay up long enough to read and act on (accounts 8). */
export const ERROR_TOAST_SECONDS = 15;

// Bound by <ToastBridge/> so toasts from outside React (the API client) use the theme's context.
let bound: MessageInstance | null = null;

export const bindMessageApi = (api: MessageInstance | null): void => {
  bound = api;
};

const api = (): MessageInstance => bound ?? staticMessage;

export function toastError(text: string, seconds = ERROR_TOAST_SECONDS): void {
  // Keyed by text: the same failure from several calls shows once, not stacked.
  void api().error({ content: text, duration: seconds, key: `error:${text}` });
}

export function toastSuccess(text: string, seconds = 5): void {
  void api().success({ content: text, duration: seconds, key: `success:${text}` });
}

export function toastInfo(text: string, seconds = 5): void {
  void api().info({ content: text, duration: seconds, key: `info:${text}` });
}
