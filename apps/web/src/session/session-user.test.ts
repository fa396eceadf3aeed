import { abilities, ACTIVE_SUBSCRIPTION, aSessionUser } from './session-user.fixtures';
import { describe, expect, it } from 'vitest';
import {
  canSeeSettings,
  MAX_USER_COOKIE_CHARS,
  parseSessionUser,
  serializeSessionUser,
  type SessionUser,
} from './session-user';

const user: SessionUser = aSessionUser(['Model.listing.view'], { id: 5, roles: [{ id: 2, name: 'User' }] });

describe('parseSessionUser', () => {
  it('reads a cookie written by serializeSessionUser', () => {
    expect(parseSessionUser(serializeSessionUser(user))).toEqual({ user, corrupt: false });
  });
  it('treats a missing cookie as signed out, not corrupt', () => {
    expect(parseSessionUser(undefined)).toEqual({ user: null, corrupt: false });
  });
  it('flags broken JSON and wrong shapes as corrupt', () => {
    expect(parseSessionUser('{not json').corrupt).toBe(true);
    expect(parseSessionUser('"a string"').corrupt).toBe(true);
    expect(parseSessionUser(JSON.stringify({ ...user, permissions: 'all' })).corrupt).toBe(true);
    expect(parseSessionUser(JSON.stringify({ ...user, id: undefined })).corrupt).toBe(true);
    // The shared schema decides: a subscription of an unknown status is not a session user.
    const odd = { ...user, subscription: { ...ACTIVE_SUBSCRIPTION, status: 'weird' } };
    expect(parseSessionUser(JSON.stringify(odd)).corrupt).toBe(true);
  });
});

describe('serializeSessionUser', () => {
  it('drops a large inline picture so the cookie is not silently refused', () => {
    const big = { ...user, profilePicture: `data:image/png;base64,${'A'.repeat(10_000)}` };
    const out = serializeSessionUser(big);
    expect(out.length).toBeLessThan(MAX_USER_COOKIE_CHARS);
    expect(parseSessionUser(out).user?.profilePicture).toBeNull();
  });
});

describe('canSeeSettings', () => {
  it('is for admins and subscribed users', () => {
    expect(canSeeSettings(null)).toBe(false);
    expect(canSeeSettings(user)).toBe(false);
    // The server's abilities say who is a platform admin: no school page.
    expect(canSeeSettings({ ...user, abilities: abilities('catalogue') })).toBe(true);
    expect(canSeeSettings({ ...user, abilities: abilities('subscription') })).toBe(false);
    expect(canSeeSettings({ ...user, isAdmin: true })).toBe(false);
    expect(
      canSeeSettings({
        ...user,
        subscription: ACTIVE_SUBSCRIPTION,
      }),
    ).toBe(true);
  });
});
