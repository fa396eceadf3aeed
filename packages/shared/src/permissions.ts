/** The specification's 26 permission strings and ours (Lesson.lead): one vocabulary for server and client. */
export const PERMISSIONS = [
  'Brand.update',
  'Model.add',
  'Model.delete',
  'Model.embed',
  'Model.listing.view',
  'Model.update',
  'Model.view',
  'Permission.listing.view',
  'Profile.update',
  'Profile.view',
  'Role.assign',
  'Role.create',
  'Role.delete',
  'Role.listing.view',
  'Role.update',
  'Screen.record',
  'Sidebar.listing.view',
  'Subscription.listing.view',
  'User.delete',
  'User.detail.view',
  'User.invite',
  'User.listing.view',
  'User.update',
  'Model.unlimited_views',
  'Background.transparent',
  'Customersupport',
  // Ours (issue 32): leads a live lesson; in the Admin role, sold by plans with liveLessons.
  'Lesson.lead',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const isPermission = (value: string): value is Permission =>
  (PERMISSIONS as readonly string[]).includes(value);

export const BUILT_IN_ROLES = { admin: 'Admin', user: 'User' } as const;

/**
 * Permissions of the built-in roles (seeded; platform admins may edit them later). The admin role has
 * them all today: a name of its own so callers say which they mean.
 * @alias
 */
export const ADMIN_ROLE_PERMISSIONS: readonly Permission[] = PERMISSIONS;

export const USER_ROLE_PERMISSIONS: readonly Permission[] = [
  'Model.listing.view',
  'Model.view',
  'Model.embed',
  'Profile.view',
  'Profile.update',
];
