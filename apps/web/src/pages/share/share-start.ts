import { installGlobalErrorLogger } from '../../logging/error-logger';
import { loadEmbedDetail } from '../../models/load-embed-detail';
import { quietPwaOnFramedPages } from '../../pwa/framed-pages';
import { MSG } from '@helix/shared/messages';
import { titleText } from '../../ui/title-text';
import { FRAME_ALLOW, frameTitle } from './frame-attributes';
import { notAllowedPanel } from './not-allowed-panel';
import { shareHeaderElement, shareHeaderView } from './share-header';
import './share.css';

/**
 * /share/{token}: the school's header (logo, name and colour, the model's name, who shared it) above
 * the viewer frame. Started by src/boot.ts instead of the app, without React, as the embed page is
 * (./embed-start.ts): the page is a header and one frame, and a pupil opening a link on a tablet should
 * spend its time on the viewer, not on starting the portal. Only a link that cannot be shown loads React
 * and antd, for the unavailable page with its hint (./embed-unavailable.tsx). The service worker, the
 * install prompt and the app's toasts never start here.
 */
export async function startSharePage(token: string | undefined, root: HTMLElement): Promise<void> {
  installGlobalErrorLogger();
  quietPwaOnFramedPages(window.location.pathname);
  const state = await loadEmbedDetail(token, 'share');
  if (state?.status === 'not-allowed') {
    document.title = titleText(MSG.embedHostNotAllowed);
    root.replaceChildren(notAllowedPanel(document));
    return;
  }
  if (state?.status !== 'ready') {
    const { showLinkUnavailable } = await import('./embed-unavailable');
    showLinkUnavailable(root, { hint: true });
    return;
  }
  const view = shareHeaderView(state.detail, window.location.origin);
  document.title = titleText(view.title);
  // The logo's proportions give its box, so the header does not move when it arrives; it is not
  // waited for long (the viewer frame starts with the page).
  const logo = await loadedImage(view.logo, LOGO_WAIT_MS);

  const page = document.createElement('div');
  page.className = 'share-page';
  const main = document.createElement('main');
  main.className = 'share-main';
  const frame = document.createElement('iframe');
  frame.className = 'embed-frame';
  frame.title = frameTitle(view.title);
  frame.allow = FRAME_ALLOW;
  frame.src = state.frameUrl;
  main.append(frame);
  page.append(shareHeaderElement(document, view, logo), main);
  root.replaceChildren(page);
}

/** How long the page waits for the school's logo before it is drawn without its proportions. */
const LOGO_WAIT_MS = 300;

/** The image at `src` once loaded and decoded, or null after `ms` or on an error. */
async function loadedImage(src: string, ms: number): Promise<HTMLImageElement | null> {
  const image = new Image();
  image.src = src;
  let timer = 0;
  const timeout = new Promise<null>((resolve) => {
    timer = window.setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([image.decode().then(() => image), timeout]);
  } catch {
    return null;
  } finally {
    window.clearTimeout(timer);
  }
}
