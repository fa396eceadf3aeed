import { installGlobalErrorLogger } from '../../logging/error-logger';
import { quietPwaOnFramedPages } from '../../pwa/framed-pages';

/**
 * /share/{token} and /embed/{token}, started by src/boot.ts instead of the app. The server drew the
 * page (apps/api/src/http/public-link-page.ts): the school's header and the viewer frame, whose one
 * API call counts the view, or the panel of a link limited to other sites; the page itself calls
 * nothing. Only a link that cannot be shown loads React and antd, for the unavailable page (the share
 * page's with its hint, the embed page's neutral: it sits inside someone else's site). The service
 * worker, the install prompt and the app's toasts never start here; failures are logged.
 */
export async function startLinkPage(kind: 'share' | 'embed', root: HTMLElement): Promise<void> {
  installGlobalErrorLogger();
  quietPwaOnFramedPages(window.location.pathname);
  const state = root.dataset.link;
  if (state === 'ready' || state === 'not-allowed') return;
  const { showLinkUnavailable } = await import('./embed-unavailable');
  showLinkUnavailable(root, { hint: kind === 'share' });
}
