import { App as AntApp, ConfigProvider } from 'antd';
import { Provider as JotaiProvider } from 'jotai';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { MultipleLoginModal } from './components/multiple-login-modal';
import { UpdatePrompt } from './components/update-prompt';
import { appStore } from './session/session.atoms';
import { theme } from './ui/theme';
import { ToastBridge } from './ui/toast-bridge';

export function App({ router }: { router: ReturnType<typeof createBrowserRouter> }) {
  return (
    <JotaiProvider store={appStore}>
      <ConfigProvider theme={theme}>
        <AntApp>
          <ToastBridge />
          <RouterProvider router={router} />
          <MultipleLoginModal />
          <UpdatePrompt />
        </AntApp>
      </ConfigProvider>
    </JotaiProvider>
  );
}
