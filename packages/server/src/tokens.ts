import { createHash, randomBytes } from 'node:crypto';

/** An unguessable token (32 random bytes, base64url): session, reset, invite and one-time codes. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** Tokens are stored only as their sha256 (hex): a database leak does not leak usable tokens. */
export const sha256 = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');
