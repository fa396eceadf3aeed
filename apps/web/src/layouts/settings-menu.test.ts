import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '@helix/shared';
import type { SessionAbilities } from '@helix/shared/schemas/abilities';
import type { SessionUser } from '../session/session-user';
import { abilities, aSessionUser } from '../session/session-user.fixtures';
import { selectedSettingsKey, settingsMenuItems } from './settings-menu';

/** Every permission and flag, so only the abilities decide. */
const user = (...can: (keyof SessionAbilities)[]): SessionUser =>
  aSessionUser([...PERMISSIONS], { isAdmin: false, isOwner: true, abilities: abilities(...can) });
const keys = (u: SessionUser | null) => settingsMenuItems(u).map((i) => i.key);

describe('settingsMenuItems', () => {
  it('shows every item the server opens, in order', () => {
    const every = user(
      'profile',
      'editProfile',
      'editBranding',
      'billing',
      'tenantUsers',
      'links',
      'tenantAudit',
      'lti',
    );
    expect(keys(every)).toEqual([
      'profile',
      'branding',
      'subscription',
      'billing-history',
      'users',
      'links',
      'audit-log',
      'lti',
    ]);
  });
  it('needs both profile abilities for Profile', () => {
    expect(keys(user('profile'))).toEqual([]);
    expect(keys(user('editProfile'))).toEqual([]);
  });
  it('gates each item by its own ability', () => {
    expect(keys(user('editBranding'))).toEqual(['branding']);
    expect(keys(user('billing'))).toEqual(['subscription', 'billing-history']);
    expect(keys(user('tenantUsers'))).toEqual(['users']);
    expect(keys(user('links'))).toEqual(['links']);
    expect(keys(user('tenantAudit'))).toEqual(['audit-log']);
    expect(keys(user('lti'))).toEqual(['lti']);
  });
  it('shows nothing on permissions and flags alone', () => {
    expect(keys(user())).toEqual([]);
  });
  it('is empty when signed out', () => {
    expect(keys(null)).toEqual([]);
  });
});

describe('selectedSettingsKey', () => {
  it('marks the section of nested pages', () => {
    expect(selectedSettingsKey('/user/settings/users-list/user-detail/4')).toBe('users');
    expect(selectedSettingsKey('/user/settings/profile')).toBe('profile');
    expect(selectedSettingsKey('/user/settings/links')).toBe('links');
    expect(selectedSettingsKey('/user/settings/lti')).toBe('lti');
    expect(selectedSettingsKey('/user/settings/audit-log')).toBe('audit-log');
    expect(selectedSettingsKey('/user/settings/billing-history')).toBe('billing-history');
    expect(selectedSettingsKey('/user/settings')).toBeUndefined();
  });
});
