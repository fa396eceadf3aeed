import { MSG } from '@helix/shared/messages';

/**
 * The panel of a share or embed page shown on a site its link is not allowed on (docs/links.md,
 * "Where a link may be shown"): no viewer, nothing counted, and words that tell the visitor why and
 * what to do. Plain DOM, like the pages themselves (no React for a page inside someone else's site).
 */
export function notAllowedPanel(doc: Document): HTMLElement {
  const main = doc.createElement('main');
  main.className = 'link-not-allowed';
  main.dataset.testid = 'link-not-allowed';
  const box = doc.createElement('div');
  box.className = 'link-not-allowed-box';
  box.setAttribute('role', 'alert');
  const title = doc.createElement('h1');
  title.textContent = MSG.embedHostNotAllowed;
  const hint = doc.createElement('p');
  hint.textContent = MSG.embedHostNotAllowedHint;
  box.append(title, hint);
  main.append(box);
  return main;
}
