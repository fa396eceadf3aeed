import { describe, expect, it } from 'vitest';
import { sha256 } from '../tokens.ts';
import { EMBED_TOKEN_SHAPE } from './embed-access.ts';
import { newLinkToken, presentableLinkToken } from './embed-link-token.ts';

const SECRET = 'a-test-signing-secret-of-32-characters!';

describe('link tokens derived from a stored seed', () => {
  it('is an unguessable token of the embed shape, stored only as seed and hash', () => {
    const a = newLinkToken(SECRET);
    const b = newLinkToken(SECRET);
    expect(a.token).toMatch(EMBED_TOKEN_SHAPE);
    expect(a.token).not.toBe(b.token);
    expect(a.tokenHash).toBe(sha256(a.token));
    expect(a.tokenSeed).not.toContain(a.token);
  });

  it('is presented again with the same secret, never with another or without a seed', () => {
    const link = newLinkToken(SECRET);
    expect(presentableLinkToken(SECRET, link)).toBe(link.token);
    expect(presentableLinkToken(`${SECRET}-rotated`, link)).toBeNull();
    expect(presentableLinkToken(SECRET, { tokenSeed: null, tokenHash: link.tokenHash })).toBeNull();
  });
});
