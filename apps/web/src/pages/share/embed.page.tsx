import { lazy, Suspense, useEffect } from 'react';
import { BootScreen } from '../../ui/boot-screen';

const LinkUnavailable = lazy(() =>
  import('./link-unavailable').then((m) => ({ default: m.LinkUnavailable })),
);

/** Whether this document was loaded at the current address (not reached by a navigation in the app). */
const loadedAtThisAddress = (): boolean =>
  performance.getEntriesByType('navigation')[0]?.name === window.location.href;

/**
 * /embed/:token inside the app. The embed page is not a screen of the app: src/boot.ts draws it on its
 * own (./embed-start.ts), so an address reached by a navigation within the app is loaded as its own
 * document. An address boot did not take for an embed link is unavailable (and is never reloaded in a
 * loop).
 */
export function EmbedPage() {
  const reload = !loadedAtThisAddress();
  useEffect(() => {
    if (reload) window.location.reload();
  }, [reload]);
  if (reload) return <BootScreen />;
  return (
    <Suspense fallback={null}>
      <LinkUnavailable hint={false} />
    </Suspense>
  );
}
