import { queryOptions } from '@tanstack/react-query';
import { fetchPermissions, fetchRolePermissions, fetchRoles } from './roles.api';

/** The roles list's offline name (its key in the query cache: offline/use-snapshot-load.ts). */
export const ROLES_SNAPSHOT = 'roles';

/** The roles, for the roles list and Assign Roles (kept for offline under ROLES_SNAPSHOT). */
export const loadRoles = (signal?: AbortSignal) => fetchRoles({ signal, toast: false });

/** The roles' query keys and reads, in one place. */
export const roleKeys = {
  all: ['roles'] as const,
  permissions: () => [...roleKeys.all, 'permissions'] as const,
  rolePermissions: (roleId: number) => [...roleKeys.all, 'role-permissions', roleId] as const,
};

/** Every permission, for the transfer list of Create Role and Edit. */
export const permissionsQuery = () =>
  queryOptions({
    queryKey: roleKeys.permissions(),
    queryFn: ({ signal }) => fetchPermissions({ signal, toast: false }),
  });

/** What a role holds, as the server says now. */
export const rolePermissionsQuery = (roleId: number, toast = true) =>
  queryOptions({
    queryKey: roleKeys.rolePermissions(roleId),
    queryFn: ({ signal }) => fetchRolePermissions(roleId, { signal, toast }).then((a) => a.permissions),
  });
