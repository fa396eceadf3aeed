import {
  HANDOVER,
  hookSelector,
  USER_MENU_KEYS_ATTRIBUTE,
  userMenuItemsOf,
  type DrawnMenuUse,
  type UserMenuKey,
} from '@helix/shared/handover';
import { menuFocusMove } from './menu-keys';

/*
 * The drawn home's user menu (issue 18 §13): a first click on the header's user menu is answered at
 * once, by this plain-DOM menu with the app's items (@helix/shared/handover USER_MENU_ITEMS, the ones
 * the button names in USER_MENU_KEYS_ATTRIBUTE), instead of waiting about a second for the app. It is a
 * WAI-ARIA menu button: Enter, Space or a click opens it, ArrowDown / ArrowUp open it on the first /
 * last item; in the menu the arrows, Home and End move, Enter or Space chooses, Escape closes it and
 * gives the focus back to the button, Tab closes it and moves on from the button; a press anywhere
 * else (a field included), the focus moving out of it or Escape anywhere close it. An item chosen
 * before the app is up shows it is busy; the app does it when it takes over. The app's header
 * (components/header/header.tsx) takes what was done here with `takeDrawnMenuUse` and keeps its own
 * menu open, on the same item, or does what was chosen. Started by ./drawn-home.ts; the styles are the entry's (styles/global.css, `.drawn-menu`).
 */

let use: DrawnMenuUse | null = null;

/**
 * What the visitor did with the drawn menu, once (null when they did not open it or closed it again).
 * Called by the app's header when it replaces the drawn one.
 */
export function takeDrawnMenuUse(): DrawnMenuUse | null {
  const taken = use;
  use = null;
  return taken && (taken.open || taken.chosen) ? taken : null;
}

/** Forgets the drawn menu (the app showed another page than the drawn one). */
export function dropDrawnMenuUse(): void {
  use = null;
}

export interface DrawnUserMenu {
  /** Whether a click on `target` is the menu's (its button or an item): handled here, not held. */
  owns(target: Element): boolean;
  /** Handles a click the menu owns. */
  click(target: Element, byKeyboard: boolean): void;
  /**
   * A click elsewhere on the drawn page closes the menu, as the app's does (a press, the focus moving
   * out or Escape outside it close it too, by the menu's own listeners).
   */
  clickedElsewhere(): void;
}

/** The drawn page's user menu, or null when its header has no user menu button. */
export function drawnUserMenu(root: HTMLElement): DrawnUserMenu | null {
  const button = root.querySelector<HTMLElement>(hookSelector(HANDOVER.userMenu));
  if (!button) return null;
  const items = userMenuItemsOf(button.getAttribute(USER_MENU_KEYS_ATTRIBUTE));
  if (items.length === 0) return null;
  const doc = root.ownerDocument;
  const menuId = 'drawn-user-menu';
  button.setAttribute('aria-haspopup', 'menu');
  button.setAttribute('aria-expanded', 'false');

  let menu: HTMLElement | null = null;
  const entries = (): HTMLElement[] =>
    menu ? [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]')] : [];
  const keyOf = (el: Element | null): UserMenuKey | null =>
    (el?.closest('[data-menu-key]')?.getAttribute('data-menu-key') as UserMenuKey | null) ?? null;

  const focusItem = (index: number) => {
    const list = entries();
    const target = list[index];
    if (!target) return;
    target.focus();
    if (use) use.focused = keyOf(target);
  };

  const inside = (target: EventTarget | null) =>
    target instanceof Node && (button.contains(target) || Boolean(menu?.contains(target)));
  /*
   * While the menu is open, anything done outside it closes it, as the app's dropdown does: a press
   * anywhere else (a field too, whose click the drawn page leaves to the browser), the focus moving
   * out (Tab, a field focused), Escape wherever the focus is. Once the app's page has replaced the
   * drawn one (the menu is no longer in the page), these listeners only remove themselves.
   */
  const outside = (event: Event) => {
    if (!menu?.isConnected) return unlisten();
    if (event instanceof KeyboardEvent) {
      if (event.key === 'Escape' && !inside(event.target)) close(false);
    } else if (!inside(event.target)) close(false);
  };
  const OUTSIDE = ['pointerdown', 'focusin', 'keydown'] as const;
  const listen = () => {
    for (const type of OUTSIDE) doc.addEventListener(type, outside, true);
  };
  const unlisten = () => {
    for (const type of OUTSIDE) doc.removeEventListener(type, outside, true);
  };

  const close = (focusButton: boolean) => {
    if (!menu) return;
    // An item already chosen keeps the menu: the app does it once it is up.
    if (use?.chosen) return;
    unlisten();
    menu.remove();
    menu = null;
    button.setAttribute('aria-expanded', 'false');
    use = null;
    if (focusButton) button.focus();
  };

  const choose = (key: UserMenuKey | null) => {
    if (!key || !use || use.chosen) return;
    use.chosen = key;
    const item = entries().find((el) => keyOf(el) === key);
    item?.setAttribute('aria-busy', 'true');
    menu?.setAttribute('aria-busy', 'true');
  };

  const open = () => {
    if (menu) return;
    const rect = button.getBoundingClientRect();
    menu = doc.createElement('ul');
    menu.id = menuId;
    menu.className = 'drawn-menu';
    menu.setAttribute('role', 'menu');
    menu.setAttribute('aria-label', button.getAttribute('aria-label') ?? 'User menu');
    menu.style.top = `${Math.round(rect.bottom + 4)}px`;
    menu.style.right = `${Math.max(0, Math.round(doc.documentElement.clientWidth - rect.right))}px`;
    for (const item of items) {
      const li = doc.createElement('li');
      li.setAttribute('role', 'menuitem');
      li.tabIndex = -1;
      li.dataset.menuKey = item.key;
      li.textContent = item.label;
      menu.append(li);
    }
    menu.addEventListener('keydown', (event) => {
      const list = entries();
      const index = list.indexOf(doc.activeElement as HTMLElement);
      const moved = menuFocusMove(event.key, index, list.length);
      if (moved !== null) {
        event.preventDefault();
        focusItem(moved);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        close(true);
      } else if (event.key === 'Tab') {
        // The focus goes back to the button, and Tab then moves on from there (WAI-ARIA menu button).
        close(true);
      } else if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        choose(keyOf(doc.activeElement));
      }
    });
    // Inside the page's root: the app's first render replaces it with the rest of the drawn page.
    root.append(menu);
    button.setAttribute('aria-expanded', 'true');
    button.setAttribute('aria-controls', menuId);
    use = { open: true, focused: null, chosen: null };
    listen();
  };

  button.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      open();
      focusItem(menuFocusMove(event.key, -1, items.length) ?? 0);
    } else if (event.key === 'Escape') {
      close(true);
    }
  });

  return {
    owns: (target) => button.contains(target) || Boolean(menu?.contains(target)),
    click(target, byKeyboard) {
      if (button.contains(target)) {
        if (menu) close(false);
        else {
          open();
          // A menu opened from the keyboard takes the focus to its first item (WAI-ARIA menu button).
          if (byKeyboard) focusItem(0);
        }
        return;
      }
      const key = keyOf(target);
      if (key) choose(key);
    },
    clickedElsewhere: () => close(false),
  };
}
