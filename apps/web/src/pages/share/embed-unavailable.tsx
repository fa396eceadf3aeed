import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LinkUnavailable } from './link-unavailable';

/**
 * The embed and share pages' unavailable page: the one part of them drawn with React and antd. The
 * embed page's is neutral (it sits inside someone else's site); the share page's says what to do.
 */
export function showLinkUnavailable(root: HTMLElement, { hint = false }: { hint?: boolean } = {}): void {
  createRoot(root).render(
    <StrictMode>
      <LinkUnavailable hint={hint} />
    </StrictMode>,
  );
}
