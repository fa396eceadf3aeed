import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '@helix/shared';
import type { SessionUser } from '../../session/session-user';
import { aSessionUser } from '../../session/session-user.fixtures';
import { selectedSidebarKey, sidebarItems } from './sidebar-items';

const user = (over: Partial<SessionUser>): SessionUser =>
  aSessionUser([...PERMISSIONS], {
    isAdmin: true,
    isOwner: false,
    type: 'admin',
    tenant: 'services',
    ...over,
  });

describe('sidebarItems', () => {
  it('gives a platform admin with every permission the eight items in order', () => {
    expect(sidebarItems(user({})).map((i) => i.label)).toEqual([
      'Users',
      'Models',
      'Statistics',
      'Roles',
      'Permissions',
      'Newsletter',
      'Support',
      'Audit log',
    ]);
  });
  it('hides items per permission and the whole sidebar without Sidebar.listing.view or admin status', () => {
    const some = user({ permissions: ['Sidebar.listing.view', 'Role.listing.view'] });
    expect(sidebarItems(some).map((i) => i.key)).toEqual(['roles', 'newsletter', 'support', 'audit-log']);
    expect(sidebarItems(user({ permissions: ['Role.listing.view'] }))).toEqual([]);
    expect(sidebarItems(user({ isAdmin: false }))).toEqual([]);
    expect(sidebarItems(null)).toEqual([]);
  });
  it('marks the current page, sub-pages included', () => {
    expect(selectedSidebarKey('/users/add-user')).toBe('users');
    expect(selectedSidebarKey('/Users/user-detail/7/')).toBe('users');
    expect(selectedSidebarKey('/news-letter')).toBe('newsletter');
    expect(selectedSidebarKey('/support')).toBe('support');
    expect(selectedSidebarKey('/audit-log')).toBe('audit-log');
    expect(selectedSidebarKey('/user/home')).toBeUndefined();
    expect(selectedSidebarKey('/usersx')).toBeUndefined();
  });
});
