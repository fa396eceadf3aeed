import { MSG } from '@helix/shared';
import { embedFrameHtml } from '@helix/shared/embed-frame';
import { IMAGE_RULES } from '@helix/shared/images';
import { ERROR_CODES } from '@helix/shared/error-codes';
import {
  OEMBED_CACHE_AGE,
  OEMBED_FORMAT,
  oembedFrameSize,
  type OEmbedResponse,
} from '@helix/shared/schemas/oembed';
import type { Config } from '../config.ts';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { embedAccess, EMBED_TOKEN_SHAPE } from '../models/embed-access.ts';
import { IMAGE_KEY_PREFIX, imageUrl } from '../presenters/image-url.ts';

/** The provider's name in every answer. */
export const OEMBED_PROVIDER_NAME = 'Helix';

/** A share or embed link's address: `/share/{token}` or `/embed/{token}`, a trailing slash allowed. */
const LINK_PATH = /^\/(share|embed)\/([^/]+)\/?$/i;

/** The token and host of a share or embed link's address; null for any other address. */
export function linkOfUrl(url: string): { token: string; host: string } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  const match = LINK_PATH.exec(parsed.pathname);
  if (!match) return null;
  let token: string;
  try {
    token = decodeURIComponent(match[2]!);
  } catch {
    return null;
  }
  return EMBED_TOKEN_SHAPE.test(token) ? { token, host: parsed.host.toLowerCase() } : null;
}

/** The portal's host (with its port when it has one), as a URL's `host` reads. */
const portalHost = (config: Pick<Config, 'PUBLIC_URL'>) => new URL(config.PUBLIC_URL).host.toLowerCase();

const notImplemented = () =>
  new AppError(ERROR_CODES.formatNotImplemented, { status: 501, message: MSG.oembedFormatNotImplemented });

/**
 * GET /api/oembed: a share or embed link as an oEmbed 1.0 `rich` answer (docs/links.md, "oEmbed").
 *
 * - a format other than json: 501 (the spec's answer for a format the provider does not serve);
 * - an address that is not one of our share or embed links (another host, another path, a malformed
 *   token), and a link that cannot show its model now (unknown, revoked, expired; a model deleted or
 *   no longer visible to the school; a school without an active plan: "private"): 404;
 * - otherwise the embed page's iframe at the largest size of the default frame's proportions within
 *   maxwidth x maxheight, the model's name, the school's name, the thumbnail when it fits, and a
 *   cache_age no later than the link's expiry.
 *
 * The host may be the portal's or the link's school's own domain (a white-label address); the frame
 * then stays on that domain. No view is counted: the frame counts when it is shown.
 */
export async function oembedFor(
  deps: Pick<ServerDeps, 'db' | 'config'>,
  query: {
    url: string;
    maxwidth?: number | undefined;
    maxheight?: number | undefined;
    format?: string | undefined;
  },
  now = new Date(),
): Promise<OEmbedResponse> {
  if (query.format && query.format.toLowerCase() !== OEMBED_FORMAT) throw notImplemented();
  const link = linkOfUrl(query.url);
  if (!link) throw AppError.notFound(MSG.embedLinkInvalid);
  const access = await embedAccess(deps, link.token, now);
  if (!access.ok) throw AppError.notFound(MSG.embedLinkInvalid);
  const { embed } = access;
  const { config } = deps;
  const portal = new URL(config.PUBLIC_URL);
  const customDomain = embed.tenant.customDomainName?.toLowerCase() ?? null;
  let frameOrigin: string;
  if (link.host === portalHost(config)) frameOrigin = portal.origin;
  else if (customDomain !== null && link.host === customDomain)
    frameOrigin = `${portal.protocol}//${customDomain}`;
  else throw AppError.notFound(MSG.embedLinkInvalid);

  const size = oembedFrameSize(query.maxwidth, query.maxheight);
  const title = embed.model.name;
  const untilExpiry = embed.expiresAt
    ? Math.max(0, Math.floor((embed.expiresAt.getTime() - now.getTime()) / 1000))
    : OEMBED_CACHE_AGE;
  const answer: OEmbedResponse = {
    type: 'rich',
    version: '1.0',
    title,
    author_name: embed.tenant.name.trim() || OEMBED_PROVIDER_NAME,
    provider_name: OEMBED_PROVIDER_NAME,
    provider_url: `${portal.origin}/`,
    cache_age: Math.min(OEMBED_CACHE_AGE, untilExpiry),
    html: embedFrameHtml({
      src: `${frameOrigin}/embed/${encodeURIComponent(link.token)}`,
      title: `${title} viewer`,
      width: size.width,
      height: size.height,
    }),
    width: size.width,
    height: size.height,
  };
  // Only a thumbnail the portal stored has a known size (cut to exactly this by the image check); the
  // spec wants it within the maximums, and the portal keeps no smaller copy: otherwise none.
  const thumb = IMAGE_RULES.thumbnail.output;
  const stored = embed.model.thumbnail?.startsWith(`${IMAGE_KEY_PREFIX}thumbnail-`) === true;
  if (
    stored &&
    thumb.width <= (query.maxwidth ?? thumb.width) &&
    thumb.height <= (query.maxheight ?? thumb.height)
  ) {
    answer.thumbnail_url = imageUrl(embed.model.thumbnail, portal.origin)!;
    answer.thumbnail_width = thumb.width;
    answer.thumbnail_height = thumb.height;
  }
  return answer;
}
