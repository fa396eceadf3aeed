import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Request, RequestHandler } from 'express';
import { hostMatches, hostOf } from '@helix/shared';
import type { Config } from '@helix/server';
import type { ServerDeps } from '@helix/server/deps';
import { escapeHtml } from '@helix/server/escape-html';
import { embedBackground } from '@helix/server/models/embed-background';
import {
  EMBED_TOKEN_SHAPE,
  embedAccess,
  type EmbedAccess,
  type EmbedRecord,
} from '@helix/server/models/embed-access';
import { embeddingAllowed } from '@helix/server/models/embed-host.policy';
import { apiOrigin, signedModelFileUrl, viewerPageUrl } from '@helix/server/models/viewer-urls';
import { presentBrandingLook } from '@helix/server/presenters/branding.presenter';
import { embedViewerToken } from '@helix/server/views/embed-viewer';
import type { LinkPageProps, LinkPageRenderer } from '@helix/shared/link-page';
import { LRUCache } from 'lru-cache';
import { shareHeaderView, titleText } from './public-link-view.ts';
import { loadServerBundle } from './server-render-support.ts';
import { splicedGzip } from './spliced-gzip.ts';

/** A share or embed link's page (case-insensitive, like web-app.ts's PUBLIC_LINK). */
const LINK_PAGE = /^\/(embed|share)\/([^/]+)\/?$/i;
const ROOT = /<div id="root">[\s\S]*?<\/div>/;
/**
 * Where this load's viewer token goes in the drawn page (cut out for splicedGzip): random per process,
 * so no school or model name can hold it.
 */
const TOKEN_SLOT = `HelixViewerTokenSlot${randomBytes(12).toString('hex')}`;

/**
 * The oEmbed discovery element of a link's page (docs/links.md, "oEmbed"): consumers that are given
 * the page's address find the oEmbed answer for it here, without running the page's scripts.
 */
function oembedDiscovery(config: Pick<Config, 'PUBLIC_URL'>, pageUrl: string): string {
  const href = `${new URL(config.PUBLIC_URL).origin}/api/oembed?url=${encodeURIComponent(pageUrl)}&format=json`;
  return `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(href)}" title="oEmbed">`;
}

/**
 * The embed document cut once where each page puts its own: before the title, the rest of the head,
 * the body up to #root, and after #root (a shell without them gets them added).
 */
function shellParts(html: string): [string, string, string, string] {
  const untitled = html.replace(/<title>[^<]*<\/title>/, '');
  const titleAt = html.search(/<title>/);
  const top = titleAt >= 0 ? html.slice(0, titleAt) : untitled.slice(0, untitled.indexOf('</head>'));
  const rest = titleAt >= 0 ? untitled.slice(titleAt) : untitled.slice(untitled.indexOf('</head>'));
  const headEnd = rest.indexOf('</head>');
  const inHead = rest.slice(0, headEnd);
  const body = rest.slice(headEnd + '</head>'.length);
  const root = ROOT.exec(body);
  if (root) return [top, inHead, body.slice(0, root.index), body.slice(root.index + root[0].length)];
  const bodyEnd = body.lastIndexOf('</body>');
  return [top, inHead, body.slice(0, bodyEnd), body.slice(bodyEnd)];
}

/** The web's server bundle, as far as the link pages use it (loaded once, as the app's pages load it). */
type LinkPages = () => Promise<object | null>;

/** A link page as described for one kind, place and origin (its parts once drawn). */
interface LinkPage {
  /** Names the drawn page: its title, head and props. */
  key: string;
  title: string;
  head: string;
  props: LinkPageProps;
  /** The page carries this load's viewer token (where TOKEN_SLOT stands). */
  viewer: boolean;
  parts?: string[];
}

/** The page's handler; `ready` once it draws pages itself (the embed document and the renderer loaded). */
export type LinkPageHandler = RequestHandler & { ready: () => boolean };

/** Pages kept drawn (one per link and look: its parts around the token slots); the least used goes first. */
const DRAWN = 1_000;

/**
 * Where a page of a link limited to some sites is, as its own request tells (docs/links.md, "Where a
 * link may be shown"): 'allowed' when its referrer is one of the link's sites inside a frame, 'refused'
 * when it is opened on its own or its referrer is another site, 'unknown' otherwise (no referrer, or
 * the portal's own page: then the viewer's ancestor origins decide, viewer-model.query.ts).
 */
function placeOf(config: Config, embed: EmbedRecord, req: Request): 'allowed' | 'refused' | 'unknown' {
  const dest = req.get('sec-fetch-dest');
  const framed = dest === undefined ? undefined : dest === 'iframe' || dest === 'frame';
  const referrer = req.get('referer');
  if (framed === false) return 'refused';
  if (embeddingAllowed(config, embed, { referrer, framed })) return 'allowed';
  const host = referrer ? hostOf(referrer) : null;
  const own = [new URL(config.PUBLIC_URL).hostname, embed.tenant.customDomainName?.toLowerCase()];
  if (host !== null && !own.includes(host) && !hostMatches(host, embed.allowedHosts)) return 'refused';
  return 'unknown';
}

/**
 * /share/{token} and /embed/{token}, drawn by the server: the embed document (dist/embed.html, the app
 * shell without the app's preloads, share.css inlined) with the link's page in #root, rendered by React
 * in the web's server bundle (renderLinkPage, apps/web/src/pages/share/link-page.tsx; the browser
 * hydrates the share page with the props it carries): the school's header and the viewer frame, whose
 * address carries this page load's viewer
 * token, minted here for the link and the client's address (viewer-token.ts). The page makes no API
 * call of its own: the viewer's one call (GET /api/viewer/model) keeps the viewer's earlier token when
 * it is still ours, counts the view and answers the model. A link limited to some sites gets a token
 * only when the page's request places it inside one of them, the panel when it places it elsewhere
 * (nothing counted), and the frame without a token when it cannot tell (the viewer's ancestor origins
 * decide). An unknown, revoked or expired link answers 404 with the unavailable page. The oEmbed discovery names the portal's address (PUBLIC_URL), or the school's white-label
 * domain when the page is asked for on it. Never cached (each load has its own token), sent gzipped
 * without rendering or compressing per load (spliced-gzip.ts). Without the server bundle (a build
 * without it) the page is the web app's (web-app.ts).
 * Mounted before the API's session and body parsing: a public page pays for none of it.
 */
export function publicLinkPage(
  deps: Pick<ServerDeps, 'db' | 'config' | 'logger'>,
  webDist: string,
  pages: LinkPages = loadServerBundle(webDist),
): LinkPageHandler {
  const { config } = deps;
  const file = path.join(path.resolve(webDist), 'embed.html');
  const shell = existsSync(file) ? shellParts(readFileSync(file, 'utf8')) : null;
  const portal = new URL(config.PUBLIC_URL);
  const viewerOrigin = new URL(config.VIEWER_URL).origin;
  /** Each page drawn once, cut where this load's viewer token goes (the frame's address, the props). */
  const drawn = new LRUCache<string, string[]>({ max: DRAWN });
  /**
   * What a link's page shows for a kind, place, origin and model file address: the same for every
   * load of them but for the viewer token, so described once per link record (embed-access.ts keeps a
   * record for EMBED_ACCESS_CACHE_MS; a change to the link is a new record, so a new description).
   */
  const described = new WeakMap<EmbedRecord, Map<string, LinkPage>>();
  const describe = (
    at: { kind: 'embed' | 'share'; token: string; origin: string },
    link: { embed: EmbedRecord; place: 'allowed' | 'unknown' | 'refused'; glb: string } | null,
  ): LinkPage => {
    const { kind, token, origin } = at;
    let props: LinkPageProps = { kind, state: 'unavailable' };
    let title = 'Link unavailable';
    let head = '';
    if (link?.place === 'refused') {
      props = { kind, state: 'not-allowed' };
      title = 'Not available on this site';
    } else if (link) {
      const { embed, place, glb } = link;
      const frameUrl =
        viewerPageUrl(config, embed.model, token, 'embedding', place === 'allowed' ? TOKEN_SLOT : undefined) +
        (glb ? `&glb=${encodeURIComponent(glb)}` : '');
      if (kind === 'embed') {
        const { transparentBackground } = embedBackground(embed);
        title = embed.model.name || '3D model';
        props = { kind, state: 'ready', modelName: title, frameUrl, transparent: transparentBackground };
        // A transparent embed: the page, like the viewer inside it, paints no background.
        if (transparentBackground) head += '<style>html,body{background:transparent}</style>';
      } else {
        const look = presentBrandingLook(embed.tenant.branding, apiOrigin(config));
        const header = shareHeaderView(
          {
            branding: {
              name: embed.tenant.name,
              brandLogo: look.brandLogo,
              primaryColor: look.primaryColor,
            },
            modelName: embed.model.name,
            creatorName: embed.creatorName,
          },
          origin,
        );
        title = header.title;
        props = { kind, state: 'ready', header, frameUrl };
      }
    }
    const pageUrl = `${origin}/${kind}/${token}`;
    // The viewer's document and code come from its own origin: connected while this page arrives.
    if (props.state === 'ready') head += `<link rel="preconnect" href="${escapeHtml(viewerOrigin)}">`;
    // A path that cannot be a link of ours names no oEmbed answer.
    if (EMBED_TOKEN_SHAPE.test(token)) head += oembedDiscovery(config, pageUrl);
    // The page's own parts name it (a short key instead of the whole page): drawn by React once per
    // link and look, then every load is those parts with its viewer token spliced in.
    const key = `${title}\u0000${head}\u0000${JSON.stringify(props)}`;
    return { key, title, head, props, viewer: link?.place === 'allowed' };
  };
  /** The renderer once the bundle is loaded (then the page needs no await before its lookup). */
  let loaded: LinkPageRenderer['renderLinkPage'] | undefined;
  const handler: RequestHandler = async (req, res, next) => {
    const match = req.method === 'GET' || req.method === 'HEAD' ? LINK_PAGE.exec(req.path) : null;
    const token = match?.[2];
    if (!shell || !match || !token) {
      next();
      return;
    }
    let renderLinkPage = loaded;
    if (!renderLinkPage) {
      try {
        renderLinkPage = ((await pages()) as Partial<LinkPageRenderer> | null)?.renderLinkPage;
        loaded = renderLinkPage;
      } catch (err) {
        deps.logger.warn({ err }, 'share page: the web server bundle failed to load');
      }
    }
    if (!renderLinkPage) {
      next();
      return;
    }
    const kind = match[1]!.toLowerCase() as 'embed' | 'share';
    let origin = portal.origin;
    let viewer: string | undefined;
    let page: LinkPage | undefined;
    try {
      // Looked up already by the frame policy for this request (embed-frame-policy.ts), else here.
      // A token of another shape is no link: the unavailable page, without a lookup.
      const seen = res.locals.embedAccess as { token: string; access: EmbedAccess } | undefined;
      const access = !EMBED_TOKEN_SHAPE.test(token)
        ? null
        : seen?.token === token
          ? seen.access
          : await embedAccess(deps, token);
      if (access?.ok) {
        const { embed } = access;
        const domain = embed.tenant.customDomainName?.toLowerCase();
        if (domain && req.hostname.toLowerCase() === domain) origin = `${portal.protocol}//${domain}`;
        const place = embed.allowedHosts.length > 0 ? placeOf(config, embed, req) : 'allowed';
        if (place === 'allowed') viewer = embedViewerToken(config, embed.id, req.ip ?? '');
        // The model's signed file address too: the viewer's document starts its download at once
        // (apps/viewer/src/model-hint.ts); the viewer's API call stays the authority on it. Signed
        // for the minute, so a link's page is the same for a minute of loads (but for the token).
        const glb = embed.model.fileKey ? signedModelFileUrl(config, embed.model) : '';
        let variants = described.get(embed);
        if (!variants) {
          variants = new Map();
          described.set(embed, variants);
        }
        const variant = `${kind}\u0000${place}\u0000${origin}\u0000${glb}`;
        page = variants.get(variant);
        if (!page) {
          page = describe({ kind, token, origin }, { embed, place, glb });
          variants.set(variant, page);
        }
      }
    } catch (err) {
      deps.logger.warn({ err }, 'share page: link lookup failed');
    }
    if (!page) {
      // No link to show (or its lookup failed): the unavailable page, without a viewer.
      viewer = undefined;
      page = describe({ kind, token, origin }, null);
    }
    let parts = page.parts ?? drawn.get(page.key);
    if (!parts) {
      const [top, inHead, inBody, end] = shell;
      const root = renderLinkPage(page.props);
      const html = `${top}<title>${escapeHtml(titleText(page.title))}</title>${inHead}${page.head}</head>${inBody}${root}${end}`;
      parts = page.viewer ? html.split(TOKEN_SLOT) : [html];
      drawn.set(page.key, parts);
    }
    page.parts = parts;
    const { key, props } = page;
    res.status(props.state === 'unavailable' ? 404 : 200);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.vary('Accept-Encoding');
    if (req.acceptsEncodings('gzip') === 'gzip') {
      res.setHeader('Content-Encoding', 'gzip');
      res.end(splicedGzip(parts, viewer ?? '', key));
    } else {
      res.end(parts.join(viewer ?? ''));
    }
  };
  return Object.assign(handler, { ready: () => shell !== null && loaded !== undefined });
}
