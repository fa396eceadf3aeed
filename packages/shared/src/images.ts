import { MSG } from './messages.ts';
import type { ImagePurpose } from './jobs.ts';

/** Types accepted for every image upload (checked by content on the server). */
export const IMAGE_TYPES = ['jpeg', 'png', 'webp', 'svg'] as const;
export const IMAGE_ACCEPT = '.jpg,.jpeg,.png,.svg,.webp,image/jpeg,image/png,image/svg+xml,image/webp';

const MB = 1024 * 1024;

export interface ImageRule {
  maxBytes: number;
  maxWidth: number;
  maxHeight: number;
  sizeMessage: string;
  dimensionMessage: string;
  /** What the stored image is resized to: 'cover' crops to exactly this size, 'inside' only shrinks. */
  output: { width: number; height: number; fit: 'cover' | 'inside' };
}

/**
 * administration-content 5: logo and loading image at most 1 MB and 1000x1000 px, the model background
 * at most 5 MB and 4000x4000 px. Thumbnails follow the logo rule and are cut to the grid's card size.
 */
export const IMAGE_RULES: Record<ImagePurpose, ImageRule> = {
  thumbnail: {
    maxBytes: MB,
    maxWidth: 1000,
    maxHeight: 1000,
    sizeMessage: MSG.fileOver1mb,
    dimensionMessage: MSG.dimensionsOver1000,
    output: { width: 480, height: 360, fit: 'cover' },
  },
  logo: {
    maxBytes: MB,
    maxWidth: 1000,
    maxHeight: 1000,
    sizeMessage: MSG.fileOver1mb,
    dimensionMessage: MSG.dimensionsOver1000,
    output: { width: 600, height: 600, fit: 'inside' },
  },
  loading: {
    maxBytes: MB,
    maxWidth: 1000,
    maxHeight: 1000,
    sizeMessage: MSG.fileOver1mb,
    dimensionMessage: MSG.dimensionsOver1000,
    output: { width: 1000, height: 1000, fit: 'inside' },
  },
  background: {
    maxBytes: 5 * MB,
    maxWidth: 4000,
    maxHeight: 4000,
    sizeMessage: MSG.fileOver5mb,
    dimensionMessage: MSG.dimensionsOver4000,
    output: { width: 2560, height: 2560, fit: 'inside' },
  },
  /** A profile picture follows the logo rule (administration-content 5) and is cut to a square avatar. */
  profile: {
    maxBytes: MB,
    maxWidth: 1000,
    maxHeight: 1000,
    sizeMessage: MSG.fileOver1mb,
    dimensionMessage: MSG.dimensionsOver1000,
    output: { width: 256, height: 256, fit: 'cover' },
  },
  /**
   * A support request's screenshot (issue 10): a whole screen, so the background's limits; shrunk to at
   * most 1920 px. Never served publicly: only platform admins read it, and the support e-mail attaches it.
   */
  screenshot: {
    maxBytes: 5 * MB,
    maxWidth: 4000,
    maxHeight: 4000,
    sizeMessage: MSG.fileOver5mb,
    dimensionMessage: MSG.dimensionsOver4000,
    output: { width: 1920, height: 1920, fit: 'inside' },
  },
};

/**
 * What one image check may cost (issue 16). A 3 KB SVG of blurred shapes can keep librsvg busy for
 * a minute, and sharp's own `timeout` is only looked at between strips of output, so an SVG is
 * rasterised in a child process that is killed at `seconds`; other formats get sharp's `timeout`.
 * Over budget the image is refused (4xx, MSG.imageTooComplex), never retried.
 */
export interface ImageCheckBudget {
  seconds: number;
  svgPixels: number;
  svgMaxBlur: number;
  svgMaxFilterUses: number;
  svgMaxUseDraws: number;
}

export const IMAGE_CHECK_BUDGET: Readonly<ImageCheckBudget> = {
  /** Wall-clock time for decoding and re-encoding one image. */
  seconds: 5,
  /** The most pixels an SVG may be rasterised to (its density is bounded, so this is a backstop). */
  svgPixels: 25_000_000,
  /**
   * Refused before rasterising (cheap, and the bombs seen so far): a blur wider than this (in the SVG's
   * units; a drop shadow uses 2 to 20) ...
   */
  svgMaxBlur: 100,
  /** ... or more filter references (attributes, style declarations, CSS rules) than this ... */
  svgMaxFilterUses: 32,
  /**
   * ... or more elements drawn through `<use>` than this, counting a `<use>` of an element that itself
   * holds `<use>`s as all it draws (a `<use>` bomb draws one filtered group thousands of times, or
   * nests uses into billions). A logo or an icon sheet draws a few dozen.
   */
  svgMaxUseDraws: 400,
};

/**
 * Image checks of one tenant in flight at once (a Redis semaphore in the API): with the images queue at
 * concurrency 4, one tenant's uploads can never hold every slot, so another tenant's picture waits at
 * most one budget. A tenant's next upload waits its turn for at most `waitMs`, then gets 429.
 */
export const IMAGE_CHECKS_PER_TENANT = { limit: 1, waitMs: 12_000 } as const;
