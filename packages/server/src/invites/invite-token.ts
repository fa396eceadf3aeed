import { createHmac, randomBytes } from 'node:crypto';
import { sha256 } from '../tokens.ts';

/**
 * An invitation's token is derived, not stored: HMAC-SHA256 under SIGNING_SECRET of a random nonce
 * kept on the row. Every send attempt re-derives the same token, so every copy of the e-mail carries a
 * working link; the database holds only the nonce and the token's sha256 (the lookup key), and a
 * database leak alone cannot make a link. Changing SIGNING_SECRET changes the derivation: an invite
 * not yet mailed gets a new nonce (send-invite.ts); one already mailed keeps its link (its hash).
 */
export const newInviteNonce = (): string => randomBytes(16).toString('base64url');

/** `count` nonces as newInviteNonce makes them, from one read of the random source. */
export const newInviteNonces = (count: number): string[] => {
  const bytes = randomBytes(16 * count);
  return Array.from({ length: count }, (_, i) => bytes.toString('base64url', 16 * i, 16 * (i + 1)));
};

export const inviteToken = (signingSecret: string, nonce: string): string =>
  createHmac('sha256', signingSecret).update(`helix-invite-token:${nonce}`, 'utf8').digest('base64url');

export const inviteTokenHash = (signingSecret: string, nonce: string): string =>
  sha256(inviteToken(signingSecret, nonce));
