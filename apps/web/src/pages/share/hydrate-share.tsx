import { StrictMode, useEffect } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { markRendered } from '../../server-render/mark-rendered';
import { LinkPage, type LinkPageData } from './link-page';

/** Marks the page hydrated once React has committed it (the app's mark: tests and the bench wait for it). */
function Hydrated({ root, data }: { root: HTMLElement; data: LinkPageData }) {
  useEffect(() => markRendered(root, 'hydrated'), [root]);
  return <LinkPage {...data} />;
}

/** The share page's markup, adopted by React with the props and texts the server rendered it with. */
export function hydrateSharePage(root: HTMLElement, data: LinkPageData): void {
  hydrateRoot(
    root,
    <StrictMode>
      <Hydrated root={root} data={data} />
    </StrictMode>,
  );
}
