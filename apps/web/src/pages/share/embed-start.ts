import { installGlobalErrorLogger } from '../../logging/error-logger';
import { loadEmbedDetail } from '../../models/load-embed-detail';
import { quietPwaOnFramedPages } from '../../pwa/framed-pages';
import { MSG } from '@helix/shared/messages';
import { titleText } from '../../ui/title-text';
import { FRAME_ALLOW, frameTitle } from './frame-attributes';
import { notAllowedPanel } from './not-allowed-panel';
import './share.css';

/**
 * /embed/{token}, inside a customer's site: the viewer fills the whole window. Started by src/boot.ts
 * instead of the app, without React: the page is one frame, and a tablet showing it inside someone's
 * lesson should spend its time on the viewer, not on starting a single-page app (issue 6 §2). Only a
 * link that cannot be shown loads React and antd, for the neutral unavailable page
 * (./embed-unavailable.tsx); failures are logged (POST /api/logs) and the visitor sees nothing more.
 * The service worker, the install prompt and the app's toasts never start here.
 */
export async function startEmbedPage(token: string | undefined, root: HTMLElement): Promise<void> {
  installGlobalErrorLogger();
  quietPwaOnFramedPages(window.location.pathname);
  const state = await loadEmbedDetail(token, 'embed');
  if (state?.status === 'not-allowed') {
    document.title = titleText(MSG.embedHostNotAllowed);
    root.replaceChildren(notAllowedPanel(document));
    return;
  }
  if (state?.status !== 'ready') {
    const { showLinkUnavailable } = await import('./embed-unavailable');
    showLinkUnavailable(root);
    return;
  }
  const name = state.detail.modelName || '3D model';
  document.title = titleText(name);

  const page = document.createElement('div');
  page.className = 'embed-page';
  const frame = document.createElement('iframe');
  frame.className = 'embed-frame';
  frame.title = frameTitle(name);
  frame.allow = FRAME_ALLOW;
  frame.src = state.frameUrl;
  page.append(frame);

  // A transparent embed (the server's answer for this load): this page, like the viewer inside it,
  // paints no background, so the customer's page shows around the model.
  if (state.detail.transparentBackground) {
    page.dataset.transparent = 'true';
    document.documentElement.style.background = 'transparent';
    document.body.style.background = 'transparent';
  }
  root.replaceChildren(page);
}
