import { describe, expect, it } from 'vitest';
import { signUnsubscribeToken, unsubscribeUrl, verifyUnsubscribeToken } from './unsubscribe-token.ts';

const SECRET = 'a'.repeat(40);

describe('unsubscribe token', () => {
  it('round-trips the address, lower-cased', () => {
    const token = signUnsubscribeToken(SECRET, 'Reader@Example.test');
    expect(verifyUnsubscribeToken(SECRET, token)).toBe('reader@example.test');
  });

  it('refuses another key, a changed address and garbage', () => {
    const token = signUnsubscribeToken(SECRET, 'reader@example.test');
    expect(verifyUnsubscribeToken('b'.repeat(40), token)).toBeNull();
    const other = Buffer.from('victim@example.test').toString('base64url');
    const forged = token.replace(/^n1\.[^.]+\./, `n1.${other}.`);
    expect(verifyUnsubscribeToken(SECRET, forged)).toBeNull();
    expect(verifyUnsubscribeToken(SECRET, 'n1.x.y')).toBeNull();
    expect(verifyUnsubscribeToken(SECRET, '')).toBeNull();
  });

  it('builds the link on PUBLIC_URL', () => {
    const url = new URL(
      unsubscribeUrl({ PUBLIC_URL: 'http://portal.test/', SIGNING_SECRET: SECRET }, 'a@b.test'),
    );
    expect(url.pathname).toBe('/api/newsletter/unsubscribe');
    expect(verifyUnsubscribeToken(SECRET, url.searchParams.get('token') ?? '')).toBe('a@b.test');
  });
});
