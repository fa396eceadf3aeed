import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import type { Config } from '@helix/server';
import type { ServerDeps } from '@helix/server/deps';
import { escapeHtml } from '@helix/server/escape-html';
import { EMBED_TOKEN_SHAPE, embedAccess } from '@helix/server/models/embed-access';
import { endCompressed } from './server-render-support.ts';

/** A share or embed link's page (case-insensitive, like web-app.ts's PUBLIC_LINK). */
const LINK_PAGE = /^\/(embed|share)\/([^/]+)\/?$/i;

/**
 * The oEmbed discovery element of a link's page (docs/links.md, "oEmbed"): consumers that are given
 * the page's address find the oEmbed answer for it here, without running the page's scripts.
 */
export function oembedDiscovery(config: Pick<Config, 'PUBLIC_URL'>, pageUrl: string): string {
  const href = `${new URL(config.PUBLIC_URL).origin}/api/oembed?url=${encodeURIComponent(pageUrl)}&format=json`;
  return `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(href)}" title="oEmbed">`;
}

/**
 * /share/{token} and /embed/{token}: the embed document (dist/embed.html, the app shell without the
 * app's preloads) with the link's oEmbed discovery in its head, drawn by the server. The address it
 * names is the portal's (PUBLIC_URL), or the school's white-label domain when the page is asked for on
 * the domain of the link's school (read from the embed path's cached record). Like the
 * static file it replaces: never cached without revalidating, sent compressed. Anything else, and a
 * token that cannot be one of ours, goes on to the web app (its unavailable page).
 */
export function publicLinkPage(
  deps: Pick<ServerDeps, 'db' | 'config' | 'logger'>,
  webDist: string,
): RequestHandler {
  const { config } = deps;
  const file = path.join(path.resolve(webDist), 'embed.html');
  const shell = existsSync(file) ? readFileSync(file, 'utf8') : null;
  const portal = new URL(config.PUBLIC_URL);
  return async (req, res, next) => {
    const match = req.method === 'GET' || req.method === 'HEAD' ? LINK_PAGE.exec(req.path) : null;
    const token = match?.[2];
    if (!shell || !match || !token || !EMBED_TOKEN_SHAPE.test(token)) {
      next();
      return;
    }
    let origin = portal.origin;
    try {
      const access = await embedAccess(deps, token);
      const domain = access.ok ? access.embed.tenant.customDomainName?.toLowerCase() : undefined;
      if (domain && req.hostname.toLowerCase() === domain) origin = `${portal.protocol}//${domain}`;
    } catch (err) {
      deps.logger.warn({ err }, 'share page: link lookup failed');
    }
    const pageUrl = `${origin}/${match[1]!.toLowerCase()}/${token}`;
    const html = shell.replace('</head>', `${oembedDiscovery(config, pageUrl)}</head>`);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.vary('Accept-Encoding');
    endCompressed(req, res, html);
  };
}
