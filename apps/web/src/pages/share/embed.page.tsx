import './share.css';
import { useEffect } from 'react';
import { BootScreen } from '../../ui/boot-screen';
import { PageTitle } from '../../ui/page-title';
import { LinkUnavailable } from './link-page';
import { LINK_PAGE_TEXTS } from './link-page-texts';

/** Whether this document was loaded at the current address (not reached by a navigation in the app). */
const loadedAtThisAddress = (): boolean =>
  performance.getEntriesByType('navigation')[0]?.name === window.location.href;

/**
 * /embed/:token and /share/:token inside the app. Neither page is a screen of the app: the API draws
 * each with the web's server bundle (apps/api/src/http/public-link-page.ts, ./link-page.tsx; started
 * by ./link-page-start.ts), so an address reached by a navigation within the app is loaded as its own
 * document. An address boot did not take for such a link is unavailable (and is never reloaded in a
 * loop); the share page says what to do, the embed page (inside someone else's site) stays neutral.
 */
function PublicLinkPage({ hint }: { hint: boolean }) {
  const reload = !loadedAtThisAddress();
  useEffect(() => {
    if (reload) window.location.reload();
  }, [reload]);
  if (reload) return <BootScreen />;
  return (
    <>
      <PageTitle title="Link unavailable" />
      <LinkUnavailable hint={hint} texts={LINK_PAGE_TEXTS} />
    </>
  );
}

export const EmbedPage = () => <PublicLinkPage hint={false} />;
export const SharePage = () => <PublicLinkPage hint />;
