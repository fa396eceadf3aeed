import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '@helix/shared';
import type { SessionAbilities } from '@helix/shared/schemas/abilities';
import type { SessionUser } from '../../session/session-user';
import { abilities, aSessionUser } from '../../session/session-user.fixtures';
import { selectedSidebarKey, sidebarItems } from './sidebar-items';

const admin = (...can: (keyof SessionAbilities)[]): SessionUser =>
  aSessionUser([...PERMISSIONS], {
    isAdmin: true,
    isOwner: false,
    type: 'admin',
    tenant: 'services',
    abilities: abilities(...can),
  });

describe('sidebarItems', () => {
  it('gives a platform admin with every page the eight items in order', () => {
    const every = admin(
      'adminSidebar',
      'platformUsers',
      'catalogue',
      'stats',
      'roles',
      'platformPermissions',
      'newsletter',
      'supportQueue',
      'platformAudit',
    );
    expect(sidebarItems(every).map((i) => i.label)).toEqual([
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
  it('shows the items whose page the server opens, and no sidebar without adminSidebar', () => {
    expect(sidebarItems(admin('adminSidebar', 'roles', 'newsletter')).map((i) => i.key)).toEqual([
      'roles',
      'newsletter',
    ]);
    // Permissions and flags alone show nothing: the server's abilities decide.
    expect(sidebarItems(admin('roles', 'platformUsers'))).toEqual([]);
    expect(sidebarItems(admin())).toEqual([]);
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
