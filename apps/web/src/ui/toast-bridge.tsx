import { App } from 'antd';
import { useEffect } from 'react';
import { bindMessageApi } from './notify';

export function ToastBridge() {
  const { message } = App.useApp();
  useEffect(() => {
    bindMessageApi(message);
    return () => bindMessageApi(null);
  }, [message]);
  return null;
}
