import { addressOf, drawnRootSelector, elementAt, type HandoverAddress } from '@helix/shared/handover';
import { drawnUserMenu, dropDrawnMenuUse } from './drawn-user-menu';

/*
 * A signed-in user's /user/home can arrive drawn by the server (apps/api/src/http/drawn-home.ts): the
 * real page, with their models, before any script runs. src/boot.ts starts the app when the visitor
 * first uses the page, and the app's own page then replaces the drawn one. What the visitor did
 * meanwhile is not lost: a click (a card's Open, a menu item) is held and made again on the same
 * element of the app's page (found by its `data-handover` hook), and the focused field keeps its focus and what was typed into it.
 */

/** The drawn home page's root, or null when the page came without it (and in Node, where it renders). */
export const drawnHomeRoot = (): HTMLElement | null =>
  typeof document === 'undefined' ? null : document.querySelector<HTMLElement>(drawnRootSelector('home'));

/*
 * What was used is found again by its hand-over hook (@helix/shared/handover: `data-handover` on the
 * user menu, Help, a card's Open, the search field), never by its place in the page: an element without
 * a hook is not carried over.
 */
let heldClick: HandoverAddress | null = null;
let focused: { address: HandoverAddress; element: Element } | null = null;

/** Sets a field's value as typing does, so the app's controlled field (React) takes it. */
function typeInto(input: HTMLInputElement, value: string): void {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Called by src/boot.ts: a click on the drawn page waits for the app (a link would reload the page) and
 * is answered at once on the drawn page (the pressed element shows it is busy; the user menu opens its
 * own plain-DOM menu, ./drawn-user-menu.ts), and the focused element is remembered.
 */
export function holdEarlyUse(root: HTMLElement): void {
  // The user menu answers a click itself, with its own plain-DOM menu (./drawn-user-menu.ts).
  const menu = drawnUserMenu(root);
  root.addEventListener('focusin', (event) => {
    if (!root.dataset.prerendered || !(event.target instanceof Element)) return;
    const address = addressOf(root, event.target);
    focused = address && { address, element: event.target };
  });
  root.addEventListener(
    'click',
    (event) => {
      if (!root.dataset.prerendered || !(event.target instanceof Element)) return;
      event.preventDefault();
      event.stopPropagation();
      if (menu?.owns(event.target)) {
        menu.click(event.target, event.detail === 0);
        return;
      }
      menu?.clickedElsewhere();
      if (heldClick) return;
      heldClick = addressOf(root, event.target);
      if (heldClick) elementAt(root, heldClick)?.setAttribute('aria-busy', 'true');
    },
    { capture: true },
  );
}

/**
 * Called by src/main.tsx before its first render over the drawn page: when the app's page has replaced
 * it, the page is the app's (tests and benchmarks wait for `data-prerendered` to go); the focus and a
 * field's typed value move to the element with the same hook on the app's page, and a held click is made
 * again there, if the app drew one.
 */
export function takeOverWhenReplaced(root: HTMLElement): void {
  const drawnAt = window.location.pathname;
  const observer = new MutationObserver(() => {
    observer.disconnect();
    delete root.dataset.prerendered;
    // The app showed another page (the session had ended, say): what was done on this one is dropped.
    if (window.location.pathname !== drawnAt) {
      focused = heldClick = null;
      dropDrawnMenuUse();
    }
    const field = focused && elementAt<Element>(root, focused.address);
    if (focused && field instanceof HTMLElement) {
      const typed = focused.element instanceof HTMLInputElement ? focused.element.value : '';
      if (typed && field instanceof HTMLInputElement) typeInto(field, typed);
      field.focus();
    }
    focused = null;
    const click = heldClick;
    heldClick = null;
    const target = click && elementAt<Element>(root, click);
    if (target instanceof HTMLElement) target.click();
  });
  observer.observe(root, { childList: true });
}
