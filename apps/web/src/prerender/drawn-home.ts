/*
 * A signed-in user's /user/home can arrive drawn by the server (apps/api/src/http/drawn-home.ts): the
 * real page, with their models, before any script runs. src/boot.ts starts the app when the visitor
 * first uses the page, and the app's own page then replaces the drawn one. What the visitor did
 * meanwhile is not lost: a click (a card's Open, a menu item) is held and made again on the same
 * element of the app's page, and the focused field keeps its focus and what was typed into it.
 */

/** The drawn home page's root, or null when the page came without it (and in Node, where it renders). */
export const drawnHomeRoot = (): HTMLElement | null =>
  typeof document === 'undefined'
    ? null
    : document.querySelector<HTMLElement>('#root[data-prerendered="home"]');

/** Where `element` sits under `root`, as child indices. */
function pathOf(root: Element, element: Element): number[] {
  const path: number[] = [];
  for (let node: Element | null = element; node && node !== root; node = node.parentElement) {
    path.unshift(node.parentElement ? [...node.parentElement.children].indexOf(node) : 0);
  }
  return path;
}

const elementAt = (root: Element, path: number[]): Element | null =>
  path.reduce<Element | null>((node, index) => node?.children[index] ?? null, root);

let heldClick: { path: number[]; tag: string } | null = null;
let focused: { path: number[]; element: Element } | null = null;

/** Sets a field's value as typing does, so the app's controlled field (React) takes it. */
function typeInto(input: HTMLInputElement, value: string): void {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Called by src/boot.ts: a click on the drawn page waits for the app (a link would reload the page),
 * and the focused element is remembered.
 */
export function holdEarlyUse(root: HTMLElement): void {
  root.addEventListener('focusin', (event) => {
    if (root.dataset.prerendered && event.target instanceof Element) {
      focused = { path: pathOf(root, event.target), element: event.target };
    }
  });
  root.addEventListener(
    'click',
    (event) => {
      if (!root.dataset.prerendered || !(event.target instanceof Element)) return;
      event.preventDefault();
      event.stopPropagation();
      heldClick ??= { path: pathOf(root, event.target), tag: event.target.tagName };
    },
    { capture: true },
  );
}

/**
 * Called by src/main.tsx before its first render over the drawn page: when the app's page has replaced
 * it, the page is the app's (tests and benchmarks wait for `data-prerendered` to go); the focus and a
 * field's typed value move to the same element of the app's page, and a held click is made again there,
 * if the app drew one.
 */
export function takeOverWhenReplaced(root: HTMLElement): void {
  const drawnAt = window.location.pathname;
  const observer = new MutationObserver(() => {
    observer.disconnect();
    delete root.dataset.prerendered;
    // The app showed another page (the session had ended, say): what was done on this one is dropped.
    if (window.location.pathname !== drawnAt) focused = heldClick = null;
    const field = focused && elementAt(root, focused.path);
    if (focused && field instanceof HTMLElement && field.tagName === focused.element.tagName) {
      const typed = focused.element instanceof HTMLInputElement ? focused.element.value : '';
      if (typed && field instanceof HTMLInputElement) typeInto(field, typed);
      field.focus();
    }
    focused = null;
    const click = heldClick;
    heldClick = null;
    const target = click && elementAt(root, click.path);
    if (target instanceof HTMLElement && target.tagName === click?.tag) target.click();
  });
  observer.observe(root, { childList: true });
}
