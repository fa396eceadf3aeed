import {
  addressOf,
  DRAWN_ATTRIBUTE,
  drawnRootSelector,
  elementAt,
  HELD_PAGES,
  type HandoverAddress,
} from '@helix/shared/handover';
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

/**
 * The root of any page drawn with this hand-over (@helix/shared/handover HELD_PAGES: the home, the
 * sign-up, /choose-subscription, the users list), or null.
 */
export function drawnHeldRoot(): HTMLElement | null {
  if (typeof document === 'undefined') return null;
  const root = document.getElementById('root');
  const kind = root?.getAttribute(DRAWN_ATTRIBUTE);
  return root && (HELD_PAGES as readonly (string | null | undefined)[]).includes(kind) ? root : null;
}

/*
 * What was used is found again by its hand-over hook (@helix/shared/handover: `data-handover` on the
 * user menu, Help, a card's Open, the search field), never by its place in the page. A control without
 * a hook (a table's sort header, a tab, a plain button: CONTROLS) is found again by what it is and
 * says: its tag, role and accessible name, and which of the page's controls alike it is. The app's
 * page is drawn by the same components from the same answers, so the same control is there; a press
 * on it is not lost on any drawn page, hooked or not.
 */
const CONTROLS =
  'button, summary, [role="button"], [role="tab"], [role="switch"], [role="checkbox"], [role="radio"], ' +
  '[role="menuitem"], [role="option"], [tabindex="0"]';

/** A control without a hook: its kind and name (`control`), and which of the controls alike it is. */
interface ControlAddress {
  control: string;
  index: number;
}
type HeldAddress = HandoverAddress | ControlAddress;

const controlKey = (el: Element): string =>
  [
    el.tagName,
    el.getAttribute('role') ?? '',
    el.getAttribute('aria-label') ?? (el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 200),
  ].join('|');

const controlsLike = (root: HTMLElement, key: string): Element[] =>
  [...root.querySelectorAll(CONTROLS)].filter((el) => controlKey(el) === key);

/** The hand-over address of what `target` is part of: its hook, else its control, else null. */
function heldAddressOf(root: HTMLElement, target: Element): HeldAddress | null {
  const hooked = addressOf(root, target);
  if (hooked) return hooked;
  const control = target.closest(CONTROLS);
  if (!control || !root.contains(control)) return null;
  const key = controlKey(control);
  const index = controlsLike(root, key).indexOf(control);
  return index < 0 ? null : { control: key, index };
}

/** The element at `address` under `root` (the app's page), or null when it has none. */
const heldElementAt = (root: HTMLElement, address: HeldAddress): Element | null =>
  'hook' in address
    ? elementAt<Element>(root, address)
    : (controlsLike(root, address.control)[address.index] ?? null);

/** The presses held for the app, in order (a card's Select, then its Buy Now); a few at most. */
let heldClicks: HeldAddress[] = [];
const HELD_CLICKS_MAX = 3;
let focused: { address: HeldAddress; element: Element } | null = null;
/** What was typed or ticked in hooked fields, by address (a form's every field, not only the focused one). */
const entered = new Map<string, { address: HandoverAddress; value: string; checked: boolean }>();
const keyOf = (address: HandoverAddress) => `${address.hook}#${address.index}`;

/**
 * The field at `address` on the app's page: the hooked element itself, or the one input inside it when
 * the hook sits on a wrapper (antd's Input.Search puts `data-` attributes on its wrapper).
 */
function fieldAt(root: HTMLElement, address: HeldAddress): Element | null {
  const hooked = heldElementAt(root, address);
  if (!hooked || hooked instanceof HTMLInputElement) return hooked;
  const inputs = hooked.querySelectorAll('input');
  return inputs.length === 1 ? inputs[0]! : hooked;
}

/** Sets a field's value as typing does, so the app's controlled field (React) takes it. */
function typeInto(input: HTMLInputElement, value: string): void {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Called by src/boot.ts: a click on the drawn page waits for the app (a link would reload the page) and
 * is answered at once on the drawn page (the pressed element shows it is busy; the user menu opens its
 * own plain-DOM menu, ./drawn-user-menu.ts), and the focused element is remembered. A press on any
 * control (hooked or not, by pointer or by Enter) is held and made again once the app is up.
 */
export function holdEarlyUse(root: HTMLElement): void {
  // The user menu answers a click itself, with its own plain-DOM menu (./drawn-user-menu.ts).
  const menu = drawnUserMenu(root);
  const remember = (event: Event) => {
    const field = event.target;
    if (!root.dataset.prerendered || !(field instanceof HTMLInputElement)) return;
    const address = addressOf(root, field);
    if (address) entered.set(keyOf(address), { address, value: field.value, checked: field.checked });
  };
  root.addEventListener('input', remember);
  root.addEventListener('change', remember);
  // A drawn form is never sent by the browser itself (it would put the fields in the address): the
  // press on its submit button is held below and made again on the app's form.
  root.addEventListener('submit', (event) => event.preventDefault(), { capture: true });
  root.addEventListener('focusin', (event) => {
    if (!root.dataset.prerendered || !(event.target instanceof Element)) return;
    const address = heldAddressOf(root, event.target);
    focused = address && { address, element: event.target };
  });
  const hold = (address: HeldAddress) => {
    if (heldClicks.length >= HELD_CLICKS_MAX) return;
    heldClicks.push(address);
    heldElementAt(root, address)?.setAttribute('aria-busy', 'true');
  };
  // Enter (or Space) on a control that is not a button (a sort header, a role="button" element)
  // makes no click of its own in the browser: it is held as the press it is, like a click.
  root.addEventListener(
    'keydown',
    (event) => {
      if (!root.dataset.prerendered || !(event.target instanceof Element)) return;
      if (event.key !== 'Enter' && !(event.key === ' ' && event.target.matches('[role="button"]'))) return;
      if (!event.target.matches(CONTROLS) || event.target.matches('button, summary, input, a[href]')) return;
      if (menu?.owns(event.target)) return;
      const address = heldAddressOf(root, event.target);
      if (!address) return;
      event.preventDefault();
      hold(address);
    },
    { capture: true },
  );
  root.addEventListener(
    'click',
    (event) => {
      if (!root.dataset.prerendered || !(event.target instanceof Element)) return;
      // Fields, boxes and their labels work on the drawn page as they are (what they hold is carried
      // over), and so do links that open a new tab (Terms, Privacy).
      if (event.target.closest('input, textarea, select, label, a[target="_blank"]')) return;
      // A link without a hook goes where it points, as a link of a page without scripts does.
      if (!addressOf(root, event.target) && event.target.closest('a[href]')) return;
      event.preventDefault();
      event.stopPropagation();
      if (menu?.owns(event.target)) {
        menu.click(event.target, event.detail === 0);
        return;
      }
      menu?.clickedElsewhere();
      const address = heldAddressOf(root, event.target);
      if (address) hold(address);
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
      focused = null;
      heldClicks = [];
      entered.clear();
      dropDrawnMenuUse();
    }
    for (const { address, value, checked } of entered.values()) {
      const input = fieldAt(root, address);
      if (!(input instanceof HTMLInputElement)) continue;
      if (input.type === 'checkbox' || input.type === 'radio') {
        if (input.checked !== checked) input.click();
      } else if (input.value !== value) typeInto(input, value);
    }
    entered.clear();
    const field = focused && fieldAt(root, focused.address);
    if (focused && field instanceof HTMLElement) {
      // What a password manager filled in without an input event.
      const typed = focused.element instanceof HTMLInputElement ? focused.element.value : '';
      if (typed && field instanceof HTMLInputElement && field.value !== typed) typeInto(field, typed);
      field.focus();
    }
    focused = null;
    // Made again in order, each after the app has answered the one before (its render committed).
    const clicks = heldClicks;
    heldClicks = [];
    const next = () => {
      const click = clicks.shift();
      const target = click && heldElementAt(root, click);
      if (target instanceof HTMLElement) target.click();
      if (clicks.length) setTimeout(next, 0);
    };
    next();
  });
  observer.observe(root, { childList: true });
}
