/**
 * The pages `npm run bench:web` measures (issue 27, "How it is measured"): each one's Lighthouse
 * performance target, how the bench knows it is ready (hydrated on load), and its main control, which
 * the first-tap flow taps right after load (bench/first-tap.ts).
 */
export interface BenchPage {
  /** The name BENCH_PAGES picks it by. */
  name: string;
  /** The address, `{token}` standing for the demo cell's embed link. */
  path: string;
  /** Lighthouse performance score (0-1, mobile) to reach. */
  score: number;
  /** Needs the demo owner's session (measured after the guest pages, once signed in). */
  signedIn: boolean;
  /**
   * False for /embed, which React draws on the server but the browser does not hydrate (issue 27 lets
   * it stay as lean as it is): it is ready once its viewer frame is in the page. Every other page,
   * /share included (src/pages/share/hydrate-share.tsx), must be hydrated on load.
   */
  hydrates: boolean;
  /** What the first tap presses (a CSS selector). */
  control: string;
  /** On a page that is the viewer frame alone: what the tap presses inside the frame (its 3D view). */
  frameControl?: string;
  /** What shows that the tap was answered; none: the tap is followed by two frames. */
  answered?: string;
}

/** The hydration mark on #root (src/server-render/adopt.ts, markRendered). */
export const HYDRATED = '#root[data-hydrated="true"]';
/** The viewer frame of /embed and /share (src/pages/share). */
export const VIEWER_FRAME = 'iframe.embed-frame';
/** A menu on the browser's popover open (ui/popover-menu.tsx: the user menu, Add Users). */
const OPEN_POPOVER_MENU = '.popover-menu:popover-open [role="menuitem"]';
/** The plan list's period switch: the annual prices shown. */
const ANNUAL = '.plan-period-toggle input[value="YEARLY"]:checked';
/** The plan list's period switch: its Annual button. */
const ANNUAL_BUTTON = '.plan-period-toggle label:has(input[value="YEARLY"])';

export const INP_MAX_MS = 200;
export const CLS_MAX = 0.02;
/** The widths the first tap is measured at: a phone, a tablet, a laptop. */
export const WIDTHS = [390, 820, 1280] as const;

export const BENCH_PAGES: BenchPage[] = [
  {
    name: 'login',
    path: '/login',
    score: 0.95,
    signedIn: false,
    hydrates: true,
    // Log In with nothing typed: the form answers with its field messages.
    control: 'form#login button[type="submit"]',
    answered: '.ant-form-item-explain-error',
  },
  {
    name: 'signup',
    path: '/signup',
    score: 0.9,
    signedIn: false,
    hydrates: true,
    control: 'form button[type="submit"]',
    answered: '.ant-form-item-explain-error',
  },
  {
    name: 'choose-subscription',
    path: '/choose-subscription',
    score: 0.9,
    signedIn: false,
    hydrates: true,
    control: ANNUAL_BUTTON,
    answered: ANNUAL,
  },
  {
    name: 'embed',
    path: '/embed/{token}',
    score: 0.95,
    signedIn: false,
    hydrates: false,
    // The viewer is the page: a tap on its view as soon as the viewer has made it (the model may still
    // be on its way: a pupil taps a loading viewer too).
    control: VIEWER_FRAME,
    frameControl: '.stage canvas',
  },
  {
    name: 'share',
    path: '/share/{token}',
    score: 0.95,
    signedIn: false,
    hydrates: true,
    // Copy link: the page's status line says it was copied (or that it could not be).
    control: '[data-testid="share-copy"]',
    answered: '[data-testid="share-said"]:not(:empty)',
  },
  {
    name: 'home',
    path: '/user/home',
    score: 0.95,
    signedIn: true,
    hydrates: true,
    control: '[data-testid="user-menu"]',
    answered: OPEN_POPOVER_MENU,
  },
  {
    name: 'users-list',
    path: '/user/settings/users-list',
    score: 0.9,
    signedIn: true,
    hydrates: true,
    control: '[data-testid="add-users"]',
    answered: OPEN_POPOVER_MENU,
  },
  {
    name: 'subscription',
    path: '/user/settings/subscription',
    score: 0.9,
    signedIn: true,
    hydrates: true,
    control: ANNUAL_BUTTON,
    answered: ANNUAL,
  },
];
