import type { LinkKind } from '@helix/shared';
import { embedFrameHtml } from '@helix/shared/embed-frame';
import { MODEL_LIMITS } from '@helix/shared/schemas/model';

export type { LinkKind };

/** `${origin}/share/{token}` or `${origin}/embed/{token}`. */
export const linkFor = (kind: LinkKind, token: string, origin: string): string =>
  `${origin.replace(/\/+$/, '')}/${kind}/${encodeURIComponent(token)}`;

/** The HTML a customer pastes into their site for an embed link (oEmbed's html is the same code). */
export const embedSnippet = (url: string, title: string): string =>
  embedFrameHtml({ src: url, title, width: '100%', height: 600 });

/**
 * A token as it appears in a link. Anything else (spaces, slashes, quotes, absurd lengths) cannot be a
 * token of ours, so the page says the link is unavailable without asking the server.
 */
export const isPlausibleToken = (token: string | undefined): token is string =>
  typeof token === 'string' &&
  token.length >= 6 &&
  token.length <= MODEL_LIMITS.token &&
  /^[A-Za-z0-9._~-]+$/.test(token);

/**
 * A frame address from the server, accepted only as http(s), so a bad answer can never put a
 * `javascript:` or `data:` URL into the page. Relative addresses resolve against the page origin.
 */
export function safeFrameUrl(url: unknown, origin: string): string | null {
  if (typeof url !== 'string' || url.trim() === '') return null;
  try {
    const parsed = new URL(url, origin);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}
