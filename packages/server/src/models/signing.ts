import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** Signatures kept per secret by `signKept` (each well under 200 bytes with its text). */
const KEPT_SIGNATURES = 10_000;

interface Signer {
  /** The secret as a key, made once: a string key is turned into one on every HMAC otherwise. */
  key: KeyObject;
  kept: LRUCache<string, string>;
}

/** One per secret (a process has one; tests make a few). */
const signers = new Map<string, Signer>();
const signerOf = (secret: string): Signer => {
  let signer = signers.get(secret);
  if (!signer) {
    if (signers.size >= 8) signers.clear();
    signer = {
      key: createSecretKey(Buffer.from(secret, 'utf8')),
      kept: new LRUCache({ max: KEPT_SIGNATURES }),
    };
    signers.set(secret, signer);
  }
  return signer;
};

/**
 * HMAC-SHA256 signatures for what the viewer host (another origin, no cookie) presents: viewer tickets
 * and short-lived model file URLs. The key is SIGNING_SECRET; each use has its own label so a signature
 * for one can never be replayed as the other.
 */
export const sign = (secret: string, label: string, text: string): string =>
  createHmac('sha256', signerOf(secret).key).update(`${label}\n${text}`).digest('base64url');

/**
 * `sign` of a text that many requests sign alike (a model file's address for the minute, a client
 * network's tag), remembered: the page load and the viewer's call both sign them on every load.
 * Only for what may sit in memory (no token: a raw token never outlives its request).
 */
export const signKept = (secret: string, label: string, text: string): string => {
  const { kept } = signerOf(secret);
  const key = `${label}\n${text}`;
  let signature = kept.get(key);
  if (signature === undefined) {
    signature = sign(secret, label, text);
    kept.set(key, signature);
  }
  return signature;
};

export const sameSignature = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const nowSeconds = () => Math.floor(Date.now() / 1000);

export const VIEWER_TICKET_TTL_SECONDS = 10 * 60;
export const FILE_URL_TTL_SECONDS = 10 * 60;

export interface ViewerTicket {
  tenantId: number;
  userId: number;
  modelId: number;
  /** Unix seconds. */
  exp: number;
}

/** `v1.<payload>.<signature>`: the portal's viewer modal passes it as `subscription`. */
export function signViewerTicket(
  secret: string,
  ticket: Omit<ViewerTicket, 'exp'>,
  ttlSeconds = VIEWER_TICKET_TTL_SECONDS,
): string {
  const body: ViewerTicket = { ...ticket, exp: nowSeconds() + ttlSeconds };
  const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `v1.${payload}.${sign(secret, 'viewer-ticket', payload)}`;
}

const TICKET_SHAPE = /^v1\.([A-Za-z0-9_-]{10,400})\.([A-Za-z0-9_-]{43})$/;
const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/**
 * The ticket's contents, or null when it is malformed, forged or expired. `graceSeconds` accepts a
 * ticket that expired at most that long ago: the Record control asks long after the load (the ticket
 * only proves who opened the modal; the record check reads the user's permissions and plan again).
 */
export function verifyViewerTicket(secret: string, ticket: string, graceSeconds = 0): ViewerTicket | null {
  const match = TICKET_SHAPE.exec(ticket);
  if (!match) return null;
  const [, payload = '', signature = ''] = match;
  if (!sameSignature(signature, sign(secret, 'viewer-ticket', payload))) return null;
  let body: Partial<ViewerTicket>;
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<ViewerTicket>;
  } catch {
    return null;
  }
  if (!isId(body.tenantId) || !isId(body.userId) || !isId(body.modelId) || !Number.isSafeInteger(body.exp))
    return null;
  if ((body.exp as number) + graceSeconds < nowSeconds()) return null;
  return body as ViewerTicket;
}

/** `exp` and `sig` query parameters for GET /api/files/models/:id. */
export function signModelFile(
  secret: string,
  modelId: number,
  ttlSeconds = FILE_URL_TTL_SECONDS,
): { exp: number; sig: string } {
  // Rounded up to the minute: loads within the same minute share one URL (and a browser cache entry).
  const exp = Math.ceil((nowSeconds() + ttlSeconds) / 60) * 60;
  return { exp, sig: signKept(secret, 'model-file', `${modelId}:${exp}`) };
}

export function verifyModelFile(secret: string, modelId: number, exp: number, sig: string): boolean {
  if (!Number.isSafeInteger(exp) || exp < nowSeconds()) return false;
  return sameSignature(sig, sign(secret, 'model-file', `${modelId}:${exp}`));
}
