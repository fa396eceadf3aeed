import type { AuthType } from './schemas/account';
import type { ModelListResponse } from './schemas/model';
import type { SessionUser } from './schemas/session';
import type { TenantUserPage } from './schemas/tenant-user';

/*
 * The hand-over contract between a page the server (or the build) draws and the browser app that takes
 * it over: which pages are drawn, the `data-` hooks the app's components carry so a click, focus or
 * typed value made on the drawn page finds the same element on the app's page, and the typed interface
 * of the web app's server bundle that the API imports. One module, used by apps/web (the components,
 * src/prerender/drawn-home.ts, src/pages/login/prerendered-login.ts) and apps/api (http/drawn-home.ts).
 */

/** The pages that arrive drawn: `#root[data-prerendered="<page>"]` until the app has taken over. */
export const DRAWN_PAGES = [
  'login',
  'home',
  'signup',
  'choose-subscription',
  'users-list',
  'subscription',
] as const;
export type DrawnPage = (typeof DRAWN_PAGES)[number];

/**
 * The drawn pages that hand over by holding the visitor's use and making it again on the app's page
 * (apps/web/src/prerender/drawn-home.ts): every drawn page but the login, whose form has its own
 * take-over (apps/web/src/pages/login/prerendered-login.ts).
 */
export const HELD_PAGES = [
  'home',
  'signup',
  'choose-subscription',
  'users-list',
  'subscription',
] as const satisfies readonly DrawnPage[];
export type HeldPage = (typeof HELD_PAGES)[number];

/** The attribute the drawn root carries; the app removes it once its page has replaced the drawn one. */
export const DRAWN_ATTRIBUTE = 'data-prerendered';

/** The root of a drawn page, as a CSS selector. */
export const drawnRootSelector = (page: DrawnPage): string => `#root[${DRAWN_ATTRIBUTE}="${page}"]`;

/** The attribute that names an element for the hand-over. */
export const HANDOVER_ATTRIBUTE = 'data-handover';

/** Every hook a drawn page's element may carry. */
export const HANDOVER = {
  /** The header's user menu button. */
  userMenu: 'user-menu',
  /** The header's Help button. */
  help: 'help',
  /** A model card's Open action (one per card, in the grid's order). */
  openModel: 'open-model',
  /** The model grid's search field. */
  modelSearch: 'model-search',
  /** The login form and its fields and buttons. */
  loginForm: 'login-form',
  loginEmail: 'login-email',
  loginPassword: 'login-password',
  loginRemember: 'login-remember',
  loginGoogle: 'login-google',
  loginForgot: 'login-forgot',
  /** The sign-up form's fields, boxes and button (Google: loginGoogle), the guest tabs and the way back to login. */
  signupName: 'signup-name',
  signupUsername: 'signup-username',
  signupEmail: 'signup-email',
  signupPassword: 'signup-password',
  signupTerms: 'signup-terms',
  signupNews: 'signup-news',
  signupSubmit: 'signup-submit',
  authTab: 'auth-tab',
  haveAccount: 'have-account',
  /** The plan list: the period switch, a card's Select/Try and Buy Now, its user count, Contact Us. */
  planPeriod: 'plan-period',
  planSelect: 'plan-select',
  planBuy: 'plan-buy',
  planUsers: 'plan-users',
  /** The owner's users list: Add Users, Export, the search field, a row's Resend Email and actions menu. */
  usersAdd: 'users-add',
  usersExport: 'users-export',
  usersSearch: 'users-search',
  userResend: 'user-resend',
  userActions: 'user-actions',
  /** A server-paged table's page numbers (apps/web use-server-list). */
  listPage: 'list-page',
  /** The settings side menu's items (in the menu's order). */
  settingsMenu: 'settings-menu',
  /** The subscription page: Billing Details, the summary's seats field, Change users and Complete payment. */
  billingDetails: 'billing-details',
  summarySeats: 'plan-seats',
  changeSeats: 'change-seats',
  completePayment: 'complete-payment',
} as const;
export type HandoverHook = (typeof HANDOVER)[keyof typeof HANDOVER];

const HOOKS = new Set<string>(Object.values(HANDOVER));
export const isHandoverHook = (value: unknown): value is HandoverHook =>
  typeof value === 'string' && HOOKS.has(value);

/** The props that put a hook on a component's element: `<Button {...handover(HANDOVER.userMenu)}>`. */
export const handover = (hook: HandoverHook): { [HANDOVER_ATTRIBUTE]: HandoverHook } => ({
  [HANDOVER_ATTRIBUTE]: hook,
});

/** Every element with `hook`, as a CSS selector. */
export const hookSelector = (hook: HandoverHook): string => `[${HANDOVER_ATTRIBUTE}="${hook}"]`;

/**
 * Where something the visitor used sits on the drawn page: the nearest element with a hook, and which
 * of the elements with that hook it is (cards repeat theirs). The same address finds the same element on
 * the app's page; an element without a hooked ancestor has none (its use is not carried over).
 */
export interface HandoverAddress {
  hook: HandoverHook;
  index: number;
}

/** What the contract needs of a DOM element (kept structural: the shared package has no DOM types). */
export interface HookedElement {
  closest(selector: string): HookedElement | null;
  getAttribute(name: string): string | null;
}
export interface HookedRoot {
  querySelectorAll(selector: string): ArrayLike<HookedElement>;
}

/** The hand-over address of `element` under `root`, or null when no hooked element holds it. */
export function addressOf(root: HookedRoot, element: HookedElement): HandoverAddress | null {
  const hooked = element.closest(`[${HANDOVER_ATTRIBUTE}]`);
  const hook = hooked?.getAttribute(HANDOVER_ATTRIBUTE);
  if (!hooked || !isHandoverHook(hook)) return null;
  const index = Array.prototype.indexOf.call(root.querySelectorAll(hookSelector(hook)), hooked);
  return index < 0 ? null : { hook, index };
}

/** The element at `address` under `root` (the app's page), or null when that page has none. */
export function elementAt<E extends HookedElement>(
  root: { querySelectorAll(selector: string): ArrayLike<E> },
  address: HandoverAddress,
): E | null {
  return root.querySelectorAll(hookSelector(address.hook))[address.index] ?? null;
}

/** What the web app's server bundle takes to draw a signed-in user's home (as JSON carries it). */
export interface HomePageInput {
  user: SessionUser;
  authType: AuthType | null;
  tenant: string;
  listing: ModelListResponse;
}

/**
 * The web app's server bundle (apps/web/build/server-bundle.ts writes it beside dist/ as
 * SERVER_BUNDLE_FILE; apps/web/src/prerender/home-page.server.tsx implements it; the API imports it).
 */
export interface ServerBundle {
  /** The whole document of the drawn home; null when the web app's route guard would not show it. */
  renderHomeDocument(indexHtml: string, input: HomePageInput): Promise<string | null>;
}
/** What the server bundle takes to draw a signed-in owner's users list (as JSON carries it). */
export interface UsersListPageInput {
  user: SessionUser;
  authType: AuthType | null;
  tenant: string;
  /** GET /user/all's first page (TENANT_USERS_FIRST_PAGE) for the same session. */
  users: TenantUserPage;
}

/** What the server bundle takes to draw /choose-subscription for a signed-out visitor (the guest plans). */
export interface ChooseSubscriptionInput {
  /** GET /guest/subscription/list's answer, as JSON carries it. */
  plans: unknown;
  google: boolean;
}

/** What the server bundle takes to draw /user/settings/subscription (each answer as JSON carries it). */
export interface SubscriptionPageInput {
  user: SessionUser;
  authType: AuthType | null;
  tenant: string;
  /** GET /subscriptionplan/all's answer. */
  plans: unknown;
  /** GET /subscription/summary's answer; null when the user may not read it or it could not be read. */
  summary: unknown;
  /** GET /views/summary's answer; null likewise. */
  views: unknown;
}

/**
 * The further pages the server bundle draws (issue 18 §14); a bundle from an older build may lack
 * them, so the API checks before it calls.
 */
export interface ServerBundlePages {
  /** The owner's /user/settings/users-list; null when the app's route guard would not show it. */
  renderUsersListDocument(indexHtml: string, input: UsersListPageInput): Promise<string | null>;
  /** The subscription page in settings; null when the app's route guard would not show it. */
  renderSubscriptionDocument(indexHtml: string, input: SubscriptionPageInput): Promise<string | null>;
  /** /choose-subscription for a signed-out visitor on the portal's host. */
  renderChooseSubscriptionDocument(indexHtml: string, input: ChooseSubscriptionInput): Promise<string>;
}

/** The server bundle's file, in the folder beside the web app's dist/. */
export const SERVER_BUNDLE_DIR = 'dist-server';
export const SERVER_BUNDLE_FILE = 'home-page.server.js';

/**
 * The header's user menu, the same on a drawn page and in the app (components/header/header.tsx): a
 * drawn page opens its own menu with these items at the first click, before the app is up
 * (apps/web/src/prerender/drawn-user-menu.ts), and the app keeps it open, or does what was chosen in
 * it, when it takes over.
 */
export const USER_MENU_ITEMS = [
  { key: 'settings', label: 'Settings' },
  { key: 'logout', label: 'Log Out' },
] as const;
export type UserMenuKey = (typeof USER_MENU_ITEMS)[number]['key'];
export type UserMenuItem = (typeof USER_MENU_ITEMS)[number];

/** On the user menu's button: which items this user's menu has (their keys, space-separated). */
export const USER_MENU_KEYS_ATTRIBUTE = 'data-menu-keys';

/** The value of USER_MENU_KEYS_ATTRIBUTE for these keys. */
export const userMenuKeysValue = (keys: readonly UserMenuKey[]): string => keys.join(' ');

/** The items an attribute value names, in the menu's order; unknown words are ignored. */
export function userMenuItemsOf(value: string | null): UserMenuItem[] {
  const words = new Set((value ?? '').split(/\s+/));
  return USER_MENU_ITEMS.filter((item) => words.has(item.key));
}

/**
 * What the visitor did with a drawn page's user menu, for the app that takes the page over: the menu is
 * open (with the focus on an item, or on its button), or an item was chosen (the app does it).
 */
export interface DrawnMenuUse {
  open: boolean;
  /** The item that had the focus; null when the focus was not in the menu. */
  focused: UserMenuKey | null;
  /** The item chosen before the app was up; null when none was. */
  chosen: UserMenuKey | null;
}
