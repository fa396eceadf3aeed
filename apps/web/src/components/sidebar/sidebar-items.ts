import type { Permission } from '@helix/shared';
import { hasPermission, type SessionUser } from '../../session/session-user';

export interface SidebarItem {
  key: 'users' | 'models' | 'stats' | 'roles' | 'permissions' | 'newsletter' | 'support' | 'audit-log';
  label: string;
  path: string;
}

interface Rule extends SidebarItem {
  /** Any one of these shows the item. */
  anyOf: Permission[];
}

const RULES: Rule[] = [
  { key: 'users', label: 'Users', path: '/users', anyOf: ['User.listing.view'] },
  { key: 'models', label: 'Models', path: '/models', anyOf: ['Model.listing.view'] },
  { key: 'stats', label: 'Statistics', path: '/stats', anyOf: ['Model.listing.view', 'User.listing.view'] },
  { key: 'roles', label: 'Roles', path: '/roles', anyOf: ['Role.listing.view'] },
  { key: 'permissions', label: 'Permissions', path: '/permissions', anyOf: ['Permission.listing.view'] },
  { key: 'newsletter', label: 'Newsletter', path: '/news-letter', anyOf: ['Sidebar.listing.view'] },
  { key: 'support', label: 'Support', path: '/support', anyOf: ['Sidebar.listing.view'] },
  { key: 'audit-log', label: 'Audit log', path: '/audit-log', anyOf: ['Sidebar.listing.view'] },
];

/** The platform admin's sidebar (Sidebar.listing.view): the items whose permission the admin holds. */
export function sidebarItems(user: SessionUser | null): SidebarItem[] {
  if (!user?.isAdmin || !hasPermission(user, 'Sidebar.listing.view')) return [];
  return RULES.filter((rule) => rule.anyOf.some((p) => hasPermission(user, p))).map(
    ({ key, label, path }) => ({
      key,
      label,
      path,
    }),
  );
}

/** The item of the current page (/users/add-user and /users/user-detail/7 belong to Users). */
export function selectedSidebarKey(pathname: string): SidebarItem['key'] | undefined {
  const path = pathname.toLowerCase().replace(/\/+$/, '');
  return RULES.find((rule) => path === rule.path || path.startsWith(`${rule.path}/`))?.key;
}
