import {
  PermissionView,
  RolePermissionsView,
  RoleSaved,
  RoleView,
  type RoleSave,
} from '@helix/shared/schemas/role';
import { tenantApi, type RequestOptions } from '../../api/client';

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

export const saveRole = async (body: RoleSave): Promise<RoleSaved> =>
  RoleSaved.parse(await tenantApi.post<unknown>('/role/create', body));

export const deleteRole = (id: number, name: string) =>
  tenantApi.post<{ message: string }>('/role/delete', { id, name });

export const assignRoles = (id: number, roles: number[]) =>
  tenantApi.post<{ message: string }>('/user/assignRoles', { id, roles });
