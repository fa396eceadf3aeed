import { LINK_PAGE_DATA_ID } from '@helix/shared/link-page';
import { installGlobalErrorLogger } from '../../logging/error-logger';
import { quietPwaOnFramedPages } from '../../pwa/framed-pages';
import type { LinkPageData } from './link-page';

/**
 * The props and texts the server rendered the share page with (src/server-render/link-page.server.tsx),
 * or null.
 */
function pageData(): LinkPageData | null {
  const text = document.getElementById(LINK_PAGE_DATA_ID)?.textContent;
  if (!text) return null;
  try {
    const data = JSON.parse(text) as LinkPageData | null;
    return data && typeof data === 'object' && data.kind === 'share' && data.texts ? data : null;
  } catch {
    return null;
  }
}

/**
 * /share/{token} and /embed/{token}, started by src/boot.ts instead of the app. The server rendered the
 * page with React (src/server-render/link-page.server.tsx, called by apps/api/src/http/public-link-page.ts):
 * the school's header and the viewer frame, whose one API call counts the view, the panel of a link
 * limited to other sites, or the unavailable page; the page itself calls nothing. The share page is
 * hydrated as soon as React and its component have loaded (nothing else: no antd, router or session
 * code), so its Copy link and Full screen buttons work; the embed page stays as drawn (no React). The
 * service worker, the install prompt and the app's toasts never start here; failures are logged (a
 * plain fetch: no API client or message catalogue on this page).
 */
export async function startLinkPage(kind: 'share' | 'embed', root: HTMLElement): Promise<void> {
  installGlobalErrorLogger();
  quietPwaOnFramedPages(window.location.pathname);
  if (root.dataset.link) {
    const data = kind === 'share' ? pageData() : null;
    if (!data) return;
    const { hydrateSharePage } = await import('./hydrate-share');
    hydrateSharePage(root, data);
    return;
  }
  // The app shell, not a link page (a server without the web's server bundle): the unavailable page.
  const { showLinkUnavailable } = await import('./show-link-unavailable');
  showLinkUnavailable(root, kind === 'share');
}
