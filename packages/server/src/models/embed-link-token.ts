import { randomBytes } from 'node:crypto';
import { sameSecret, sha256 } from '../tokens.ts';
import { sign } from './signing.ts';

/** Signs nothing else: a link token can never be replayed as a viewer ticket or file URL signature. */
const LABEL = 'embed-link-token';

/**
 * A new link's token: HMAC-SHA256(SIGNING_SECRET, seed) in base64url (43 characters, the shape
 * EMBED_TOKEN_SHAPE expects). The database keeps the random seed and the token's sha256, never the
 * token: a database leak alone still leaks no usable link, and the server, which holds the secret, can
 * present the token again to the people who may list the link.
 */
export function newLinkToken(secret: string): { token: string; tokenSeed: string; tokenHash: string } {
  const tokenSeed = randomBytes(32).toString('base64url');
  const token = sign(secret, LABEL, tokenSeed);
  return { token, tokenSeed, tokenHash: sha256(token) };
}

/**
 * The link's token when the server can present it: null for a link made before seeds were kept, and
 * for one whose seed no longer yields its hash (SIGNING_SECRET has changed since it was made; the link
 * still works, only its address cannot be shown again).
 */
export function presentableLinkToken(
  secret: string,
  link: { tokenSeed: string | null; tokenHash: string },
): string | null {
  if (!link.tokenSeed) return null;
  const token = sign(secret, LABEL, link.tokenSeed);
  return sameSecret(sha256(token), link.tokenHash) ? token : null;
}
