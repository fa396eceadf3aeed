import type { EmbedFlag, ViewerMode } from '@helix/shared/embed';
import type { LoadErrorKind } from './load-model.ts';
import type { Branding } from './model-source.ts';
import { h } from './ui/dom.ts';

/** What browser tests read from window.__viewer. */
export interface ViewerTestState {
  ready: boolean;
  error: string | null;
  errorKind: LoadErrorKind | null;
  partNames: string[];
  settings: string[];
  mode: ViewerMode;
  playing: boolean;
  labelsVisible: boolean;
  centred: boolean;
  /** Distance from the camera to the orbit target, updated on every rendered frame. */
  cameraDistance: number;
  /** Name of the part highlighted from the table of contents, if any. */
  highlighted: string | null;
  /** No backdrop (a transparent embed link the plan still includes). */
  transparent: boolean;
  /** The Record control's state, null when the control is not offered. */
  recording: 'idle' | 'starting' | 'recording' | 'ready' | null;
  /** How this device offers AR (null: it cannot, or the link's `ar` feature is off). */
  ar: 'webxr' | 'quick-look' | null;
  arState: 'idle' | 'preparing' | 'presenting';
  /** prefers-reduced-motion: reduce was in force at load. */
  reducedMotion: boolean;
  /** Animated camera flights started (none under reduced motion). */
  flights: number;
  cameraPosition: number[];
  cameraTarget: number[];
  /** The highlighted part (as `highlighted`) and the parts switched off in the layers, by name. */
  selected: string | null;
  hiddenParts: string[];
  /** A live lesson (mode 'lesson', lesson/): the frame's role and connection, null in other modes. */
  lessonRole: 'lead' | 'follow' | 'free' | null;
  lessonStatus: 'live' | 'reconnecting' | 'over' | null;
  /** The lesson's cut-away, part colours and pointer (world coordinates) as shown. */
  cutaway: { axis: 'x' | 'y' | 'z'; offset: number } | null;
  colours: Record<string, string>;
  pointer: number[] | null;
  /** Views handed over by the lesson page and shown (coalesced: at most one a frame). */
  lessonViewsApplied: number;
  /** Views this frame reported to the lesson page while leading. */
  lessonViewsPosted: number;
}

/** Breakpoint of the compact layout (the spec's 767 px mobile breakpoint). */
const MOBILE_QUERY = '(max-width: 767px)';

/** desktop_view forces the desktop layout; otherwise narrow frames get the compact layout. */
export function applyLayout(flags: ReadonlySet<EmbedFlag>): void {
  const mq = window.matchMedia(MOBILE_QUERY);
  const apply = () => {
    document.body.dataset.layout = flags.has('desktop_view') || !mq.matches ? 'desktop' : 'mobile';
  };
  apply();
  mq.addEventListener('change', apply);
}

/**
 * Tenant background: background_color paints the branding colour, background shows the branding
 * image (covering, above the colour). Without them the viewer's default backdrop is used. A transparent
 * link (the API's answer) has no backdrop at all.
 */
export function applyBackground(
  stage: HTMLElement,
  branding: Branding,
  flags: ReadonlySet<EmbedFlag>,
  transparent = false,
): void {
  if (branding.primaryColor) document.documentElement.style.setProperty('--accent', branding.primaryColor);
  if (transparent) {
    // A transparent embed: no backdrop at all (the renderer clears to alpha 0, the page is transparent).
    document.documentElement.style.setProperty('--stage-bg', 'transparent');
    document.body.dataset.background = 'transparent';
    return;
  }
  const kinds: string[] = [];
  if (flags.has('background_color') && branding.backgroundColor) {
    document.documentElement.style.setProperty('--stage-bg', branding.backgroundColor);
    kinds.push('color');
  }
  if (flags.has('background') && branding.backgroundImage) {
    stage.append(
      h('img', {
        class: 'stage-image',
        src: branding.backgroundImage,
        alt: '',
        'data-flag': 'background',
        decoding: 'async',
        referrerpolicy: 'no-referrer',
      }),
    );
    kinds.push('image');
  }
  document.body.dataset.background = kinds.length ? kinds.join(' ') : 'default';
}
