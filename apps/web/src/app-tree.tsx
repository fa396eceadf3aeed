import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Provider as JotaiProvider, type createStore } from 'jotai';
import { useEffect, useState, type ReactNode } from 'react';

/**
 * What the browser adds beside the page once it is up (`extras`): nothing on the server and in the
 * first (hydrating) render, so the server's markup and the browser's first render are one tree.
 * `onMounted` runs once the app's first render is committed (src/main.tsx marks hydration with it).
 */
function AfterFirstRender({ extras, onMounted }: { extras?: ReactNode; onMounted?: () => void }) {
  const [mounted, setMounted] = useState(false);
  useEffect(() => {
    setMounted(true);
    onMounted?.();
    // Once, as the app's first render is committed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return mounted ? extras : null;
}

/**
 * The app's tree around the router, the same on the server (src/server-render/render-route.server.tsx,
 * with a static router) and in the browser (src/app.tsx), so the browser hydrates the server's markup.
 */
export function AppTree(props: {
  store: ReturnType<typeof createStore>;
  queryClient: QueryClient;
  router: ReactNode;
  extras?: ReactNode;
  onMounted?: () => void;
}) {
  return (
    <JotaiProvider store={props.store}>
      <QueryClientProvider client={props.queryClient}>
        {props.router}
        <AfterFirstRender extras={props.extras} onMounted={props.onMounted} />
      </QueryClientProvider>
    </JotaiProvider>
  );
}
