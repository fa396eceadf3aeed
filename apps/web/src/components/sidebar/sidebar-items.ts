import type { SessionAbilities } from '@helix/shared/schemas/abilities';
import { abilitiesOf, type SessionUser } from '../../session/session-user';

export interface SidebarItem {
  key: 'users' | 'models' | 'stats' | 'roles' | 'permissions' | 'newsletter' | 'support' | 'audit-log';
  label: string;
  path: string;
}

interface Rule extends SidebarItem {
  /** The session ability of the item's page (the route guard opens it by the same). */
  ability: keyof SessionAbilities;
}

const RULES: Rule[] = [
  { key: 'users', label: 'Users', path: '/users', ability: 'platformUsers' },
  { key: 'models', label: 'Models', path: '/models', ability: 'catalogue' },
  { key: 'stats', label: 'Statistics', path: '/stats', ability: 'stats' },
  { key: 'roles', label: 'Roles', path: '/roles', ability: 'roles' },
  { key: 'permissions', label: 'Permissions', path: '/permissions', ability: 'platformPermissions' },
  { key: 'newsletter', label: 'Newsletter', path: '/news-letter', ability: 'newsletter' },
  { key: 'support', label: 'Support', path: '/support', ability: 'supportQueue' },
  { key: 'audit-log', label: 'Audit log', path: '/audit-log', ability: 'platformAudit' },
];

/** The platform admin's sidebar (the session's adminSidebar): the items whose page the server opens. */
export function sidebarItems(user: SessionUser | null): SidebarItem[] {
  const can = abilitiesOf(user);
  if (!can.adminSidebar) return [];
  return RULES.filter((rule) => can[rule.ability]).map(({ key, label, path }) => ({
    key,
    label,
    path,
  }));
}

/** The item of the current page (/users/add-user and /users/user-detail/7 belong to Users). */
export function selectedSidebarKey(pathname: string): SidebarItem['key'] | undefined {
  const path = pathname.toLowerCase().replace(/\/+$/, '');
  return RULES.find((rule) => path === rule.path || path.startsWith(`${rule.path}/`))?.key;
}
