import { message } from 'antd';
import { useEffect } from 'react';
import { bindMessageApi } from './toasts';

/**
 * Binds the themed message API (toasts) for code outside React (the API client). message.useMessage
 * rather than antd's <App>: App also brings the modal and notification machinery into every page's
 * first download, and only toasts are needed here.
 */
export function ToastBridge() {
  const [api, contextHolder] = message.useMessage();
  useEffect(() => {
    bindMessageApi(api);
    return () => bindMessageApi(null);
  }, [api]);
  return contextHolder;
}
