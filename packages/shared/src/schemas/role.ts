import { z } from 'zod';
import { RoleAbilities } from './abilities.ts';
import { MSG } from '../messages.ts';
import { requiredText } from './text.ts';
import { MAX_ID } from './ids.ts';

/**
 * Roles and role assignment (administration-content 6 and 7). The API validates with these schemas
 * and the web forms take their rules and messages from them.
 */
export const ROLE_LIMITS = { name: 60, permissions: 100, roles: 50 } as const;

const dbId = z.number({ error: MSG.notFound }).int().min(1).max(MAX_ID);

/** Ids, each once (duplicates dropped). */
const idList = (max: number) =>
  z
    .array(dbId)
    .max(max)
    .transform((ids) => [...new Set(ids)]);

/** POST /role/create: id 0 (or absent) creates, any other id updates that role. */
export const RoleSave = z.strictObject({
  id: z.number().int().min(0).max(MAX_ID).default(0),
  name: requiredText(MSG.roleNameRequired, ROLE_LIMITS.name),
  /** Permission ids. */
  permissions: idList(ROLE_LIMITS.permissions).default([]),
});
export type RoleSave = z.input<typeof RoleSave>;

/** POST /role/delete: the spec also sends the name; only the id counts. */
export const RoleDelete = z.strictObject({
  id: dbId,
  name: z
    .string()
    .max(ROLE_LIMITS.name * 2)
    .optional(),
});

/** POST /role/permissions. */
export const RoleIdRequest = z.strictObject({ id: dbId });

/** POST /user/assignRoles: the user's roles become exactly these. */
export const AssignRoles = z.strictObject({
  id: dbId,
  roles: idList(ROLE_LIMITS.roles).refine((ids) => ids.length > 0, { error: MSG.rolesRequired }),
});
export type AssignRoles = z.input<typeof AssignRoles>;

export const PermissionView = z.object({ id: z.number().int(), name: z.string() });
export type PermissionView = z.infer<typeof PermissionView>;

export const RoleView = z.object({
  id: z.number().int(),
  name: z.string(),
  builtIn: z.boolean(),
  permissions: z.array(PermissionView),
  userCount: z.number().int(),
  /** Incremented on every update; an offline edit sends it back as If-Match. */
  version: z.number().int(),
  /** What the caller may do with this role (edit, delete). */
  abilities: RoleAbilities,
});
export type RoleView = z.infer<typeof RoleView>;

/** POST /role/permissions: the spec's spelling of unAssignedPersmission is the contract. */
export const RolePermissionsView = z.object({
  permissions: z.array(PermissionView),
  unAssignedPersmission: z.array(PermissionView),
});
export type RolePermissionsView = z.infer<typeof RolePermissionsView>;

export const RoleSaved = z.object({ message: z.string(), role: RoleView });
export type RoleSaved = z.infer<typeof RoleSaved>;

export const MessageView = z.object({ message: z.string() });

/** POST /user/assignRoles: the user's roles now, and the version a next assignment sends as If-Match. */
export const RolesAssigned = z.object({
  message: z.string(),
  roles: z.array(z.object({ id: z.number().int(), name: z.string() })),
  rolesVersion: z.number().int(),
});
export type RolesAssigned = z.output<typeof RolesAssigned>;
