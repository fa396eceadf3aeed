/** What the address bar needs to read and rewrite the fragment (the window, or a test's own). */
export interface AddressBar {
  location: Pick<Location, 'pathname' | 'search' | 'hash'>;
  history: Pick<History, 'state' | 'replaceState'>;
}

/**
 * The ticket a learner's LTI launch put after `#lti=` on the join page (docs/live-lessons.md, "From a
 * course"), taken out of the address bar as it is read (history.replaceState, keeping the router's
 * state), so copying the page's address never shares a pupil's seat. Null when there is none.
 */
export function takeLtiTicket(bar: AddressBar): string | null {
  const fragment = new URLSearchParams(bar.location.hash.replace(/^#/, ''));
  if (!fragment.has('lti')) return null;
  const ticket = fragment.get('lti');
  fragment.delete('lti');
  const rest = fragment.toString();
  const { pathname, search } = bar.location;
  bar.history.replaceState(bar.history.state, '', `${pathname}${search}${rest ? `#${rest}` : ''}`);
  return ticket || null;
}
