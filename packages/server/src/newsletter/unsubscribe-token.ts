import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The unsubscribe link of marketing mail: `n1.<base64url e-mail>.<HMAC-SHA256>` under SIGNING_SECRET
 * with its own label. It does not expire (a link in an old mail must still work) and reveals nothing
 * but the address it was sent to.
 */
const LABEL = 'newsletter-unsubscribe';
const TOKEN_SHAPE = /^n1\.([A-Za-z0-9_-]{4,700})\.([A-Za-z0-9_-]{43})$/;

const sign = (secret: string, payload: string): string =>
  createHmac('sha256', secret).update(`${LABEL}\n${payload}`).digest('base64url');

export function signUnsubscribeToken(secret: string, email: string): string {
  const payload = Buffer.from(email.toLowerCase(), 'utf8').toString('base64url');
  return `n1.${payload}.${sign(secret, payload)}`;
}

/** The address, or null for a malformed or forged token. */
export function verifyUnsubscribeToken(secret: string, token: string): string | null {
  const match = TOKEN_SHAPE.exec(token);
  if (!match) return null;
  const [, payload = '', signature = ''] = match;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const email = Buffer.from(payload, 'base64url').toString('utf8');
  return email.includes('@') ? email : null;
}

/** The link to put in marketing mail (and its List-Unsubscribe header). */
export const unsubscribeUrl = (config: { PUBLIC_URL: string; SIGNING_SECRET: string }, email: string) =>
  `${config.PUBLIC_URL.replace(/\/+$/, '')}/api/newsletter/unsubscribe?token=${encodeURIComponent(
    signUnsubscribeToken(config.SIGNING_SECRET, email),
  )}`;
