import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LinkUnavailable } from './link-page';
import { LINK_PAGE_TEXTS } from './link-page-texts';

/** A link page the server did not draw (the app shell): the unavailable page, rendered here. */
export function showLinkUnavailable(root: HTMLElement, hint: boolean): void {
  createRoot(root).render(
    <StrictMode>
      <LinkUnavailable hint={hint} texts={LINK_PAGE_TEXTS} />
    </StrictMode>,
  );
}
