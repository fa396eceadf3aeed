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
