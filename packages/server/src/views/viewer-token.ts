import { randomBytes } from 'node:crypto';
import { sameSignature, sign, signKept } from '../models/signing.ts';

/**
 * Viewer tokens: who a viewer of a share or embed link is, decided by the server. The share and embed
 * pages get one with the embed detail (POST /model/embed/detail) and pass it through the viewer frame
 * to GET /api/viewer/model, where a view counts once per token per view window. A token is signed with
 * SIGNING_SECRET (HMAC-SHA256, label 'viewer-token') and bound to
 * - the link (the embed token's id): it counts nothing on another link;
 * - the client's network (clientNetwork: the IPv4 address, or the IPv6 /64), as a keyed hash: a token
 *   taken elsewhere counts as a load without a token there. Pupils behind one school address share the
 *   network, so binding to it costs a classroom nothing; a device that changes network is, at worst,
 *   one load counted per address until the page's next load gives it a token for the new network;
 * - a lifetime of one view window (at least MIN_TTL_SECONDS), so tokens cannot be stockpiled.
 * The client chooses nothing in it: a changed byte breaks the signature.
 */
const LABEL = 'viewer-token';
const ADDRESS_LABEL = 'viewer-address';
const MIN_TTL_SECONDS = 10 * 60;
const SHAPE = /^vw1\.([A-Za-z0-9_-]{10,300})\.([A-Za-z0-9_-]{43})$/;
const NONCE = /^[A-Za-z0-9_-]{22}$/;

interface Body {
  /** The embed token's id (the link). */
  l: number;
  /** The viewer: 16 random bytes, base64url. */
  n: string;
  /** Keyed hash of the client's network. */
  a: string;
  /** Unix seconds. */
  exp: number;
}

export interface ViewerTokenScope {
  linkId: number;
  /** clientNetwork() of the request. */
  network: string;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const addressTag = (secret: string, network: string) => signKept(secret, ADDRESS_LABEL, network).slice(0, 16);
const ttlOf = (windowSeconds: number) => Math.max(windowSeconds, MIN_TTL_SECONDS);

function encode(secret: string, body: Body): string {
  const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `vw1.${payload}.${sign(secret, LABEL, payload)}`;
}

/** The token's body when its signature is ours and it is for this link and network (expiry not checked). */
function bodyOf(secret: string, token: string, scope: ViewerTokenScope): Body | null {
  const match = SHAPE.exec(token);
  if (!match) return null;
  const [, payload = '', signature = ''] = match;
  if (!sameSignature(signature, sign(secret, LABEL, payload))) return null;
  let body: Partial<Body>;
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<Body>;
  } catch {
    return null;
  }
  if (body.l !== scope.linkId || typeof body.n !== 'string' || !NONCE.test(body.n)) return null;
  if (body.a !== addressTag(secret, scope.network) || !Number.isSafeInteger(body.exp)) return null;
  return body as Body;
}

/**
 * The viewer a token names (its nonce), or null when it is not a valid token for this link and network
 * now: malformed, forged, expired, another link's, or minted for another network.
 */
export function verifyViewerToken(secret: string, token: string, scope: ViewerTokenScope): string | null {
  const body = bodyOf(secret, token, scope);
  return body && body.exp >= nowSeconds() ? body.n : null;
}

/**
 * A token for this page load. `previous` is the token the page kept from its last load of the link:
 * when it is ours, for this link and network, its viewer is kept (reloads stay one viewer), renewed
 * once less than half its lifetime is left (an expired one too: it was minted for this very network);
 * anything else gets a new viewer.
 */
export function mintViewerToken(
  secret: string,
  scope: ViewerTokenScope,
  windowSeconds: number,
  previous?: string,
): string {
  const ttl = ttlOf(windowSeconds);
  const now = nowSeconds();
  const kept = previous ? bodyOf(secret, previous, scope) : null;
  if (kept && previous && kept.exp - now >= ttl / 2) return previous;
  return encode(secret, {
    l: scope.linkId,
    n: kept?.n ?? randomBytes(16).toString('base64url'),
    a: addressTag(secret, scope.network),
    exp: now + ttl,
  });
}

/**
 * The viewer's kept token renewed as mintViewerToken renews it, when it is ours for this link and
 * network (expired too: it was minted for this very network); null for anything else, so the caller
 * falls back to the page's own token instead of starting yet another viewer.
 */
export function renewViewerToken(
  secret: string,
  scope: ViewerTokenScope,
  windowSeconds: number,
  kept: string,
): string | null {
  return bodyOf(secret, kept, scope) ? mintViewerToken(secret, scope, windowSeconds, kept) : null;
}

/** The viewer a token names, WITHOUT checking it (benchmarks and tests count distinct viewers). */
export function peekViewerToken(token: string): string | null {
  const payload = SHAPE.exec(token)?.[1];
  if (!payload) return null;
  try {
    const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<Body>;
    return typeof body.n === 'string' ? body.n : null;
  } catch {
    return null;
  }
}
