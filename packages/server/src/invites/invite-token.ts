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

export const inviteToken = (signingSecret: string, nonce: string): string =>
  createHmac('sha256', signingSecret).update(`helix-invite-token:${nonce}`, 'utf8').digest('base64url');

export const inviteTokenHash = (signingSecret: string, nonce: string): string =>
  sha256(inviteToken(signingSecret, nonce));
