import { PermissionView, RolePermissionsView, RoleSaved, RoleView } from '@helix/shared/schemas/role';
import { tenantApi, type RequestOptions } from '../../api/client';
import { sendOrQueue } from '../../offline/outbox';

/** Roles and permissions calls (platform admins). Answers are parsed with the shared schemas. */
export const fetchRoles = async (options?: RequestOptions): Promise<RoleView[]> =>
  RoleView.array().parse(await tenantApi.get<unknown>('/role/all', options));

export const fetchPermissions = async (options?: RequestOptions): Promise<PermissionView[]> =>
  PermissionView.array().parse(await tenantApi.get<unknown>('/permission/all', options));

export const fetchRolePermissions = async (
  id: number,
  options?: RequestOptions,
): Promise<RolePermissionsView> =>
  RolePermissionsView.parse(await tenantApi.post<unknown>('/role/permissions', { id }, options));

/** Create Role and Edit through the outbox: sent now, or queued when offline (If-Match: the role's version). */
export const saveRoleOrQueue = (
  body: { id: number; name: string; permissions: number[] },
  role: RoleView | null,
) =>
  sendOrQueue<unknown>({
    kind: role ? 'role.update' : 'role.create',
    target: role ? `role:${role.id}` : `role:new:${body.name}`,
    label: role ? `Edit role ${role.name} → ${body.name}` : `Create role ${body.name}`,
    path: '/role/create',
    body,
    baseVersion: role?.version ?? null,
  }).then((result) =>
    result.status === 'sent' ? { status: 'sent' as const, data: RoleSaved.parse(result.data) } : result,
  );

export const deleteRoleOrQueue = (role: RoleView) =>
  sendOrQueue<{ message: string }>({
    kind: 'role.delete',
    target: `role:${role.id}`,
    label: `Delete role ${role.name}`,
    path: '/role/delete',
    body: { id: role.id, name: role.name },
    baseVersion: role.version,
  });

export const assignRolesOrQueue = (
  user: { id: number; name: string; rolesVersion: number },
  roles: number[],
) =>
  sendOrQueue<{ message: string }>({
    kind: 'user.assignRoles',
    target: `user:${user.id}`,
    label: `Assign roles to ${user.name}`,
    path: '/user/assignRoles',
    body: { id: user.id, roles },
    baseVersion: user.rolesVersion,
    versionField: 'rolesVersion',
  });
