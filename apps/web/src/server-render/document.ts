import type { ServerRenderedPage } from '@helix/shared/server-render';

/** The boot screen index.html paints inside #root (see index.html). */
const ROOT = /<div id="root">[\s\S]*?<\/div>/;
/** What React hoists out of a component tree (title, preloads) ahead of the markup. */
const HOISTED = /^(?:<title>[^<]*<\/title>|<link [^>]*\/?>|<meta [^>]*\/?>)+/;

/** index.html's first script or module preload in its head: the page's own preloads go before it. */
const FIRST_SCRIPT = /<script type="module"|<link rel="modulepreload"/;

/** The app's module preloads in index.html (build/preload-app.ts marks them low priority). */
export const APP_PRELOADS = /\s*<link rel="modulepreload" crossorigin fetchpriority="low" href="[^"]+">/g;

/** The id of the JSON a server-rendered page carries for the app that takes it over (src/server-render/page-data.ts). */
export const PAGE_DATA_ID = 'page-data';

/** JSON that can sit inside a <script> element: no `<` can close it. */
const scriptJson = (data: unknown): string => JSON.stringify(data).replace(/</g, '\\u003c');

/**
 * index.html with a page rendered in Node inside #root (`data-server-rendered` says which), its title and
 * hoisted links in the head, its styles last in the head (antd's CSS variables as their own elements, then the
 * CSS), and, for a page with data, the data as a
 * JSON script (not run: `type="application/json"`, which the Content-Security-Policy allows).
 */
export function serverRenderedDocument(
  indexHtml: string,
  page: { html: string; css: string; styleTags?: string; links?: string },
  kind: ServerRenderedPage,
  data?: unknown,
): string {
  if (!ROOT.test(indexHtml)) throw new Error('server render: index.html has no <div id="root">');
  const hoisted = HOISTED.exec(page.html)?.[0] ?? '';
  const body = page.html.slice(hoisted.length);
  const title = /<title>[^<]*<\/title>/.exec(hoisted)?.[0];
  const preloads = hoisted.replace(/<title>[^<]*<\/title>/, '');
  const head = `${page.links ?? ''}${page.styleTags ?? ''}<style>${page.css}</style>`;
  let html = indexHtml;
  if (title) html = html.replace(/<title>[^<]*<\/title>/, () => title);
  // What React hoisted (the first screen's images, the largest paint's among them) goes ahead of the
  // app's script and its seventy-odd module preloads: on HTTP/1.1 (six connections to a host) an image
  // asked for after them waited for the code's downloads.
  const headEnd = html.indexOf('</head>');
  const firstScript = html.slice(0, headEnd).search(FIRST_SCRIPT);
  html =
    firstScript < 0
      ? html.replace('</head>', () => `  ${preloads}\n  </head>`)
      : `${html.slice(0, firstScript)}${preloads}\n    ${html.slice(firstScript)}`;
  html = html.replace('</head>', () => `  ${head}\n  </head>`);
  const json =
    data === undefined
      ? ''
      : `<script type="application/json" id="${PAGE_DATA_ID}">${scriptJson(data)}</script>`;
  return html.replace(ROOT, () => `<div id="root" data-server-rendered="${kind}">${body}</div>${json}`);
}

/**
 * The links that start the page's own chunks downloading with the document (index.html preloads only
 * the app's), low priority like those: boot.ts asks for the same chunks a frame later, and the module
 * loader then finds them preloaded instead of adding some sixty links to the head itself, which held a
 * tablet's main thread for 50-120 ms (CPU slowed 4x). The page's stylesheets are inlined in it
 * (`page.css`): their links are disabled, never fetched, and tell the loader they are in the page.
 */
export function pageAssetLinks(indexHtml: string, assets: { scripts: string[]; styles: string[] }): string {
  const scripts = assets.scripts
    .filter((file) => !indexHtml.includes(`href="/${file}"`) && !indexHtml.includes(`src="/${file}"`))
    .map((file) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="/${file}">`);
  const styles = assets.styles.map((file) => `<link rel="stylesheet" href="/${file}" disabled>`);
  return [...scripts, ...styles].join('');
}

/**
 * `<html data-google="on|off">` on a login or sign-up rendered by the server: the app that takes the page over reads it
 * (src/session/sign-in-providers.ts), so it renders the same form (with or without "Continue with
 * Google") without asking the server.
 */
export const withGoogleFlag = (html: string, google: boolean): string =>
  html.replace(
    /<html\b([^>]*)>/i,
    (_tag, attrs: string) => `<html${attrs} data-google="${google ? 'on' : 'off'}">`,
  );
