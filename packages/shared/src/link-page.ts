/*
 * The contract between the API's share and embed pages (apps/api/src/http/public-link-page.ts) and the
 * web app's renderer of them (apps/web/src/server-render/link-page.server.tsx, in the web's server
 * bundle beside renderPage): what the page shows, drawn by React on the server; the share page carries
 * the same props for the browser, which hydrates it (apps/web/src/pages/share/link-page-start.ts).
 */

/** What the share page's header shows: the school's look, the model's name and who shared it. */
export interface ShareHeaderView {
  /** The school's name (its brand name; never the slug of its white-label addresses). */
  brandName: string;
  /** The school's logo (an http(s) address), or Helix's mark. */
  logo: string;
  /** The school's primary colour: the header's underline (as on its white-label login). */
  colour: string;
  /**
   * The name's colour: the school's when it is readable on the header's white (WCAG AA, 4.5:1), else
   * null (the page's text colour), so a light brand colour never makes the name unreadable.
   */
  nameColour: string | null;
  /** The page's heading: the model's name. */
  title: string;
  /** "Shared by …", or null when the link's maker has no name. */
  sharedBy: string | null;
}

/** A link's page: the share page (header and viewer), the embed page (the viewer alone), or a panel. */
export type LinkPageProps =
  | { kind: 'share'; state: 'ready'; header: ShareHeaderView; frameUrl: string }
  | { kind: 'embed'; state: 'ready'; modelName: string; frameUrl: string; transparent: boolean }
  | { kind: 'share' | 'embed'; state: 'not-allowed' | 'unavailable' };

/** The id of the JSON script the share page carries its props in (the browser hydrates with them). */
export const LINK_PAGE_DATA_ID = 'link-page-data';

/** What the web's server bundle exports for the link pages (beside renderPage, ServerBundle). */
export interface LinkPageRenderer {
  /**
   * `<div id="root" data-link="{state}">` with the page drawn inside, and for the share page the
   * props as a JSON script after it. Every text and address is escaped (React's).
   */
  renderLinkPage(props: LinkPageProps): string;
}
