import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** An unguessable token (32 random bytes, base64url): session, reset, invite and one-time codes. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** Tokens are stored only as their sha256 (hex): a database leak does not leak usable tokens. */
export const sha256 = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** Compares two secrets (or their hashes) in constant time. */
export const sameSecret = (a: string, b: string): boolean => {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
};
