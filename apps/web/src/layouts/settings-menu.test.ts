import { describe, expect, it } from 'vitest';
import type { Permission } from '@helix/shared';
import type { SessionUser } from '../session/session-user';
import { aSessionUser } from '../session/session-user.fixtures';
import { selectedSettingsKey, settingsMenuItems } from './settings-menu';

const all: Permission[] = [
  'Profile.view',
  'Profile.update',
  'Brand.update',
  'Subscription.listing.view',
  'User.listing.view',
];
const user = (permissions: Permission[], isAdmin = false): SessionUser =>
  aSessionUser(permissions, { isAdmin, isOwner: false });
const keys = (u: SessionUser | null) => settingsMenuItems(u).map((i) => i.key);

describe('settingsMenuItems', () => {
  it('shows every item to a non-admin holding every permission', () => {
    expect(keys(user(all))).toEqual(['profile', 'branding', 'subscription', 'billing-history', 'users']);
  });
  it('shows Links to anyone holding Model.embed, admins included', () => {
    expect(keys(user(['Model.embed']))).toEqual(['links']);
    expect(keys(user(['Model.embed'], true))).toEqual(['links']);
    expect(selectedSettingsKey('/user/settings/links')).toBe('links');
  });
  it('hides branding, subscription and users from admins', () => {
    expect(keys(user(all, true))).toEqual(['profile']);
  });
  it('needs both profile permissions for Profile', () => {
    expect(keys(user(['Profile.view']))).toEqual([]);
    expect(keys(user(['Profile.update']))).toEqual([]);
  });
  it('gates each item by its own permission', () => {
    expect(keys(user(['Brand.update']))).toEqual(['branding']);
    expect(keys(user(['Subscription.listing.view']))).toEqual(['subscription', 'billing-history']);
    expect(selectedSettingsKey('/user/settings/billing-history')).toBe('billing-history');
    expect(keys(user(['User.listing.view']))).toEqual(['users']);
  });
  it("shows the audit log and the LMS settings to the school's owner only, never to an admin", () => {
    expect(keys({ ...user([]), isOwner: true })).toEqual(['audit-log', 'lti']);
    expect(keys({ ...user(all), isOwner: true }).slice(-2)).toEqual(['audit-log', 'lti']);
    expect(keys(user(all))).not.toContain('lti');
    expect(selectedSettingsKey('/user/settings/lti')).toBe('lti');
    expect(keys({ ...user(all, true), isOwner: true })).toEqual(['profile']);
    expect(selectedSettingsKey('/user/settings/audit-log')).toBe('audit-log');
  });
  it('is empty when signed out', () => {
    expect(keys(null)).toEqual([]);
  });
});

describe('selectedSettingsKey', () => {
  it('marks the section of nested pages', () => {
    expect(selectedSettingsKey('/user/settings/users-list/user-detail/4')).toBe('users');
    expect(selectedSettingsKey('/user/settings/profile')).toBe('profile');
    expect(selectedSettingsKey('/user/settings')).toBeUndefined();
  });
});
