import { message as staticMessage } from 'antd';

type MessageInstance = ReturnType<typeof staticMessage.useMessage>[0];

// Bound by <ToastBridge/> so toasts from outside React (the API client) use the theme's context.
let bound: MessageInstance | null = null;

export const bindMessageApi = (api: MessageInstance | null): void => {
  bound = api;
};

export const messageApi = (): MessageInstance => bound ?? staticMessage;
