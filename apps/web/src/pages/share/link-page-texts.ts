import { MSG } from '@helix/shared/messages';
import type { LinkPageTexts } from './link-page';

/**
 * The link pages' texts from the catalogue, for their renderers: the server (which also hands them to
 * the share page's hydration in its JSON script), the app's unavailable page. The share page's own
 * code never loads the catalogue.
 */
export const LINK_PAGE_TEXTS: LinkPageTexts = {
  linkCopied: MSG.linkCopied,
  clipboardFailed: MSG.clipboardFailed,
  embedHostNotAllowed: MSG.embedHostNotAllowed,
  embedHostNotAllowedHint: MSG.embedHostNotAllowedHint,
  linkUnavailable: MSG.linkUnavailable,
  linkUnavailableHint: MSG.linkUnavailableHint,
};
