import { renderToString } from 'react-dom/server';
import { LINK_PAGE_DATA_ID, type LinkPageRenderer } from '@helix/shared/link-page';
import { LinkPage, type LinkPageData } from '../pages/share/link-page';
import { LINK_PAGE_TEXTS } from '../pages/share/link-page-texts';

/** What React hoists out of a component tree (preloads) ahead of the markup. */
const HOISTED = /^(?:<link [^>]*\/?>)+/;

/** JSON that can sit inside a <script> element: no `<` can close it. */
const scriptJson = (data: unknown): string => JSON.stringify(data).replace(/</g, '\\u003c');

/**
 * /share/{token} and /embed/{token}'s #root, rendered by React (apps/api/src/http/public-link-page.ts
 * calls it once per link and look, then splices each load's viewer token in). The share page carries
 * its props and the catalogue's texts as a JSON script (not run: `type="application/json"`), which the
 * browser hydrates it with (src/pages/share/link-page-start.ts, which loads no message catalogue); the
 * embed page is not hydrated (issue 27 lets it stay lean).
 */
export const renderLinkPage: LinkPageRenderer['renderLinkPage'] = (props) => {
  const page: LinkPageData = { ...props, texts: LINK_PAGE_TEXTS };
  // Without the preload React puts before an image (the logo): the <img> is in the first bytes anyway,
  // and the browser's React keeps its hoisted links in the head, not in #root.
  const html = renderToString(<LinkPage {...page} />).replace(HOISTED, '');
  const data =
    props.kind === 'share'
      ? `<script type="application/json" id="${LINK_PAGE_DATA_ID}">${scriptJson(page)}</script>`
      : '';
  return `<div id="root" data-link="${props.state}">${html}</div>${data}`;
};
