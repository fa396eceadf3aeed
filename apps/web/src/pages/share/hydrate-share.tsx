import { StrictMode, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { LinkPageProps } from '@helix/shared/link-page';
import { markRendered } from '../../server-render/mark-rendered';
import { LinkPage, LinkUnavailable } from './link-page';

/** Marks the page hydrated once React has committed it (the app's mark: tests and the bench wait for it). */
function Hydrated({ root, props }: { root: HTMLElement; props: LinkPageProps }) {
  useEffect(() => markRendered(root, 'hydrated'), [root]);
  return <LinkPage {...props} />;
}

/** The share page's markup, adopted by React with the props the server rendered it with. */
export function hydrateSharePage(root: HTMLElement, props: LinkPageProps): void {
  hydrateRoot(
    root,
    <StrictMode>
      <Hydrated root={root} props={props} />
    </StrictMode>,
  );
}

/** A link page the server did not draw (the app shell): the unavailable page, rendered here. */
export function showLinkUnavailable(root: HTMLElement, hint: boolean): void {
  createRoot(root).render(
    <StrictMode>
      <LinkUnavailable hint={hint} />
    </StrictMode>,
  );
}
