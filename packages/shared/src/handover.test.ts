import { describe, expect, it } from 'vitest';
import {
  addressOf,
  drawnRootSelector,
  DRAWN_PAGES,
  HELD_PAGES,
  elementAt,
  handover,
  HANDOVER,
  hookSelector,
  isHandoverHook,
  type HookedElement,
  USER_MENU_ITEMS,
  userMenuItemsOf,
  userMenuKeysValue,
} from './handover';

/** A minimal element tree: enough of the DOM for the contract (closest, getAttribute, querySelectorAll). */
class Node implements HookedElement {
  children: Node[] = [];
  constructor(
    readonly attributes: Record<string, string> = {},
    readonly parent: Node | null = null,
  ) {
    parent?.children.push(this);
  }
  getAttribute(name: string) {
    return this.attributes[name] ?? null;
  }
  private matches(selector: string) {
    const m = /^\[([a-z-]+)(?:="([^"]*)")?\]$/.exec(selector);
    if (!m) throw new Error(`unsupported selector ${selector}`);
    const value = this.getAttribute(m[1]!);
    return m[2] === undefined ? value !== null : value === m[2];
  }
  closest(selector: string): Node | null {
    return this.matches(selector) ? this : (this.parent?.closest(selector) ?? null);
  }
  querySelectorAll(selector: string): Node[] {
    return this.children.flatMap((c) => [
      ...(c.matches(selector) ? [c] : []),
      ...c.querySelectorAll(selector),
    ]);
  }
}

function page() {
  const root = new Node();
  const header = new Node({}, root);
  const menu = new Node(handover(HANDOVER.userMenu), header);
  const menuIcon = new Node({}, menu);
  const cards = [0, 1, 2].map(() => new Node(handover(HANDOVER.openModel), new Node({}, root)));
  const text = new Node({}, root);
  return { root, menu, menuIcon, cards, text };
}

describe('the drawn pages hand-over contract', () => {
  it('addresses a used element by its hook, and finds the same element on the app page', () => {
    const drawn = page();
    const address = addressOf(drawn.root, drawn.menuIcon);
    expect(address).toEqual({ hook: 'user-menu', index: 0 });
    const app = page();
    expect(elementAt(app.root, address!)).toBe(app.menu);
  });

  it('tells repeated hooks apart by their order', () => {
    const drawn = page();
    const address = addressOf(drawn.root, drawn.cards[2]!);
    expect(address).toEqual({ hook: 'open-model', index: 2 });
    const app = page();
    expect(elementAt(app.root, address!)).toBe(app.cards[2]);
    expect(elementAt(app.root, { hook: 'open-model', index: 5 })).toBeNull();
  });

  it('carries nothing for an element without a hook, or with an unknown one', () => {
    const drawn = page();
    expect(addressOf(drawn.root, drawn.text)).toBeNull();
    const stray = new Node({ 'data-handover': 'not-a-hook' }, drawn.root);
    expect(addressOf(drawn.root, stray)).toBeNull();
    expect(isHandoverHook('not-a-hook')).toBe(false);
    expect(isHandoverHook('user-menu')).toBe(true);
  });

  it('names its selectors', () => {
    expect(hookSelector(HANDOVER.userMenu)).toBe('[data-handover="user-menu"]');
    expect(drawnRootSelector('home')).toBe('#root[data-prerendered="home"]');
    expect(handover(HANDOVER.loginEmail)).toEqual({ 'data-handover': 'login-email' });
  });

  it('holds the use of every drawn page but the login (which has its own form take-over), one hook name each', () => {
    expect([...HELD_PAGES].sort()).toEqual(DRAWN_PAGES.filter((p) => p !== 'login').sort());
    const names = Object.values(HANDOVER);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('the user menu items', () => {
  it('are read back from the button attribute in the menu order, ignoring unknown words', () => {
    expect(userMenuItemsOf(userMenuKeysValue(['logout', 'settings'])).map((i) => i.key)).toEqual([
      'settings',
      'logout',
    ]);
    expect(userMenuItemsOf('logout  bogus').map((i) => i.label)).toEqual(['Log Out']);
    expect(userMenuItemsOf(null)).toEqual([]);
    expect(USER_MENU_ITEMS.map((i) => i.label)).toEqual(['Settings', 'Log Out']);
  });
});
