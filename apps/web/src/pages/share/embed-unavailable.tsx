import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LinkUnavailable } from './link-unavailable';

/** The embed page's neutral unavailable page: the one part of it drawn with React and antd. */
export function showLinkUnavailable(root: HTMLElement): void {
  createRoot(root).render(
    <StrictMode>
      <LinkUnavailable hint={false} />
    </StrictMode>,
  );
}
