import { useAtomValue } from 'jotai';
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { queryClient } from './api/query-client';
import { AppTree } from './app-tree';
import { isFramedPath } from './pwa/framed-pages';
import { appStore, multipleLoginOpenAtom } from './session/session.atoms';

type Router = ReturnType<typeof createBrowserRouter>;

// Downloaded only when a session is ended elsewhere, not with every page. Both come with antd's theme
// (ui/themed.tsx): antd is not part of the entry chunk.
const MultipleLoginModal = lazy(() =>
  import('./components/multiple-login-modal').then((m) => ({ default: m.MultipleLoginModal })),
);
// Registers the service worker; loaded after the first page, never on embed and share pages.
const UpdatePrompt = lazy(() =>
  import('./components/update-prompt').then((m) => ({ default: m.UpdatePrompt })),
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

/** The session-ended dialog and the service worker's prompt (not on embed and share pages). */
function BrowserExtras({ router }: { router: Router }) {
  const framed = useOnFramedPage(router);
  return (
    <>
      <MultipleLogin />
      {/* The service worker is registered here, so a framed page never installs one. */}
      {!framed && (
        <Suspense fallback={null}>
          <UpdatePrompt />
        </Suspense>
      )}
    </>
  );
}

export function App({ router, onMounted }: { router: Router; onMounted?: () => void }) {
  return (
    <AppTree
      store={appStore}
      queryClient={queryClient}
      router={<RouterProvider router={router} />}
      extras={<BrowserExtras router={router} />}
      onMounted={onMounted}
    />
  );
}
