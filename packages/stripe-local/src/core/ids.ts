import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random base62 string, like the tails of Stripe ids. */
export function randomToken(length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return out;
}

/** `cus_...`, `sub_...`: Stripe's prefix and 24 random characters. */
export const newId = (prefix: string): string => `${prefix}_${randomToken(24)}`;
