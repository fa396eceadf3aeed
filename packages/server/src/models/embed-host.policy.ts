import { ERROR_CODES } from '@helix/shared/error-codes';
import { MSG, hostMatches, hostOf } from '@helix/shared';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';

/**
 * Where a link limited to some sites may be shown (docs/links.md, "Where a link may be shown"). The
 * browser enforces the embed page's `frame-ancestors` (apps/api/src/http/embed-frame-policy.ts); the
 * server decides again before a view can count: the embed detail mints no viewer token for a page
 * shown elsewhere, and the viewer's load of such a link counts only with one (viewer-model.query.ts).
 * The portal's own hosts (PUBLIC_URL's, the tenant's custom domain) are the pages in between, never
 * the site a link is shown on.
 */

/** The link's allowlist and the tenant's custom domain: what the checks below need of a link. */
export interface HostLimitedLink {
  allowedHosts: readonly string[];
  tenant: { customDomainName: string | null };
}

/** What a share or embed page load tells about the pages around it. */
export interface EmbeddingSeen {
  /** `location.ancestorOrigins`, parent first, where the browser has it (Chromium, Safari). */
  ancestors?: readonly string[] | undefined;
  /** `document.referrer` of the page (the embedding page's address or origin). */
  referrer?: string | undefined;
  /** Whether the page is in a frame (top-level loads are not on any site). */
  framed?: boolean | undefined;
  /** The detail request's Sec-Fetch-Site: only our own page may ask for it. */
  fetchSite?: string | undefined;
}

export const hostNotAllowed = () =>
  new AppError(ERROR_CODES.embedHostNotAllowed, { status: 403, message: MSG.embedHostNotAllowed });

function ownHosts(config: Pick<Config, 'PUBLIC_URL'>, link: HostLimitedLink): Set<string> {
  const own = new Set([new URL(config.PUBLIC_URL).hostname]);
  if (link.tenant.customDomainName) own.add(link.tenant.customDomainName.toLowerCase());
  return own;
}

/**
 * Whether a chain of ancestor origins is allowed: every one is the portal or matches the allowlist,
 * and at least one is not the portal (a page opened on its own, or only inside the portal, is on no
 * site). An opaque ancestor ("null": a sandboxed frame) is on no site we can name: refused.
 */
export function ancestorsAllowed(
  config: Pick<Config, 'PUBLIC_URL'>,
  link: HostLimitedLink,
  ancestors: readonly string[],
): boolean {
  if (link.allowedHosts.length === 0) return true;
  const own = ownHosts(config, link);
  const outside: string[] = [];
  for (const origin of ancestors) {
    const host = hostOf(origin);
    if (host === null) return false;
    if (!own.has(host)) outside.push(host);
  }
  return outside.length > 0 && outside.every((host) => hostMatches(host, link.allowedHosts));
}

/**
 * Whether a share or embed page load may show (and count) a link: always for a link without an
 * allowlist; for one with, the page must be framed by allowed sites, as its ancestor origins say, or
 * where the browser does not report them (Firefox), as its referrer says. A detail request that a
 * browser marks as sent by another site's page is refused.
 */
export function embeddingAllowed(
  config: Pick<Config, 'PUBLIC_URL'>,
  link: HostLimitedLink,
  seen: EmbeddingSeen,
): boolean {
  if (link.allowedHosts.length === 0) return true;
  if (seen.fetchSite !== undefined && seen.fetchSite !== 'same-origin') return false;
  if (seen.ancestors !== undefined) return ancestorsAllowed(config, link, seen.ancestors);
  if (seen.framed === false) return false;
  const host = seen.referrer ? hostOf(seen.referrer) : null;
  return host !== null && !ownHosts(config, link).has(host) && hostMatches(host, link.allowedHosts);
}
