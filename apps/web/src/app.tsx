import { ConfigProvider } from 'antd';
import { Provider as JotaiProvider, useAtomValue } from 'jotai';
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { UpdatePrompt } from './components/update-prompt';
import { isFramedPath } from './pwa/framed-pages';
import { appStore, multipleLoginOpenAtom } from './session/session.atoms';
import { theme } from './ui/theme';
import { ToastBridge } from './ui/toast-bridge';

type Router = ReturnType<typeof createBrowserRouter>;

// Downloaded only when a session is ended elsewhere, not with every page.
const MultipleLoginModal = lazy(() =>
  import('./components/multiple-login-modal').then((m) => ({ default: m.MultipleLoginModal })),
);

function MultipleLogin() {
  const open = useAtomValue(multipleLoginOpenAtom);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <MultipleLoginModal />
    </Suspense>
  );
}

/** Whether the current route is an embed or share page, which never show the PWA prompts. */
const useOnFramedPage = (router: Router): boolean =>
  useSyncExternalStore(
    (onChange) => router.subscribe(onChange),
    () => isFramedPath(router.state.location.pathname),
  );

export function App({ router }: { router: Router }) {
  const framed = useOnFramedPage(router);
  return (
    <JotaiProvider store={appStore}>
      <ConfigProvider theme={theme}>
        <ToastBridge />
        <RouterProvider router={router} />
        <MultipleLogin />
        {/* The service worker is registered here, so a framed page never installs one. */}
        {!framed && <UpdatePrompt />}
      </ConfigProvider>
    </JotaiProvider>
  );
}
