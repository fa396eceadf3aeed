import { z } from 'zod';

/**
 * What the caller may do, as the server decides it (Outline's presentPolicies): each item of a list or
 * a detail carries its own abilities, and the session carries those of the whole session (pages and
 * global actions). They come from the same policy functions the calls enforce
 * (packages/server/src/<feature>/<feature>.policy.ts); the web shows, hides and disables by these
 * alone. A call still checks again.
 */

/** A user of the tenant (users list row, user detail). */
export const TenantUserAbilities = z.object({
  /** Open the user detail page (User.detail.view). */
  view: z.boolean(),
  /** Resend the invitation: the user has not set a password yet, the caller may invite. */
  resend: z.boolean(),
  /** Delete: User.delete, never the owner, an admin or oneself, never by a platform admin. */
  delete: z.boolean(),
});
export type TenantUserAbilities = z.infer<typeof TenantUserAbilities>;

/** A user in the platform admin's tables (/users, /permissions). */
export const PlatformUserAbilities = z.object({
  view: z.boolean(),
  /** Always false today: a platform admin does not delete users (the row's delete is disabled). */
  delete: z.boolean(),
  /** Assign roles (Role.assign). */
  assignRoles: z.boolean(),
});
export type PlatformUserAbilities = z.infer<typeof PlatformUserAbilities>;

/** A model of the grid. */
export const ModelAbilities = z.object({
  /** Open it in the viewer (Model.view). */
  view: z.boolean(),
  /** Edit it (the catalogue's: a platform admin with Model.update). */
  edit: z.boolean(),
  /** Share or embed it (Model.embed). */
  embed: z.boolean(),
  /** Delete it (the catalogue's: a platform admin with Model.delete). */
  delete: z.boolean(),
  /** Start a live lesson on it (Lesson.lead with the plan's liveLessons; lessons.ts). */
  lesson: z.boolean(),
});
export type ModelAbilities = z.infer<typeof ModelAbilities>;

/** A share or embed link. */
export const EmbedLinkAbilities = z.strictObject({
  /** Revoke it (an active or expired link the caller may manage). */
  revoke: z.boolean(),
  /** Change its expiry or the sites that may show it (not once revoked). */
  edit: z.boolean(),
});
export type EmbedLinkAbilities = z.infer<typeof EmbedLinkAbilities>;

/** A role of the roles table. */
export const RoleAbilities = z.object({
  edit: z.boolean(),
  /** Never for the built-in Admin and User roles. */
  delete: z.boolean(),
});
export type RoleAbilities = z.infer<typeof RoleAbilities>;

/**
 * The session's abilities: the pages the user may open (the route guards and the menus read them)
 * and the actions that belong to no item.
 */
export const SessionAbilities = z.object({
  // Platform pages.
  /** /users: every user of every tenant. */
  platformUsers: z.boolean(),
  /** /users/user-detail/{id}. */
  platformUserDetail: z.boolean(),
  /** /users/add-user: a customer with a granted plan. */
  addPlatformUser: z.boolean(),
  /** /permissions: the Assign Roles table. */
  platformPermissions: z.boolean(),
  /** /models: the catalogue. */
  catalogue: z.boolean(),
  /** /roles. */
  roles: z.boolean(),
  /** /news-letter. */
  newsletter: z.boolean(),
  /** /support: the support requests queue. */
  supportQueue: z.boolean(),
  /** /audit-log: every tenant's changes. */
  platformAudit: z.boolean(),
  /** The platform admin's sidebar. */
  adminSidebar: z.boolean(),
  // Either side.
  /** /stats (administration-content 2: admin-only): platform admins, a school's owner and its Admins. */
  stats: z.boolean(),
  /** The statistics' model cards and the views export (Model.listing.view). */
  modelStats: z.boolean(),
  /** The statistics' top users (User.listing.view). */
  userStats: z.boolean(),
  /** The statistics' views per class (a school's owner, or its user statistics). */
  classStats: z.boolean(),
  /** /projects: the Admin role. */
  projects: z.boolean(),
  /** /user/settings/profile. */
  profile: z.boolean(),
  editProfile: z.boolean(),
  /** /user/settings/links: share and embed links. */
  links: z.boolean(),
  // A school's pages.
  /** /user/home: the school's model grid. */
  home: z.boolean(),
  /** /subscription: a school's user (subscribe, or see that the plan is the owner's business). */
  subscription: z.boolean(),
  /** /user/settings/subscription and billing history (Subscription.listing.view). */
  billing: z.boolean(),
  /** /user/settings/users-list. */
  tenantUsers: z.boolean(),
  /** /user/settings/users-list/user-detail/{id}. */
  tenantUserDetail: z.boolean(),
  /** Add Users (single and bulk invite; the bulk invite page). */
  inviteUsers: z.boolean(),
  /** /user/settings/branding. */
  editBranding: z.boolean(),
  /** /user/settings/audit-log: the school's changes (its owner). */
  tenantAudit: z.boolean(),
  /** /user/settings/lti (its owner). */
  lti: z.boolean(),
  /** /user/lessons/{id}: lead live lessons (Lesson.lead, sold by the plan's liveLessons). */
  lessons: z.boolean(),
  // Global actions.
  /** Add Model. */
  addModel: z.boolean(),
  /** Create Role. */
  createRole: z.boolean(),
  /** The school's period usage: views counters on the grid (not the platform's). */
  seeViewUsage: z.boolean(),
  /** Additional-view information with the counters (Subscription.listing.view). */
  seeAdditionalViews: z.boolean(),
  /** Changing the plan, seats and card (the school's owner): where a full school is sent to add seats. */
  manageBilling: z.boolean(),
  /** Add Views: the owner of a school whose plan is in force, limited and sells extra views. */
  buyViews: z.boolean(),
  /** A transparent background in the Share/Embed dialog (Background.transparent). */
  transparentEmbed: z.boolean(),
  /** Support requests are fast-track now (the plan's flag and Customersupport). */
  prioritySupport: z.boolean(),
});
export type SessionAbilities = z.infer<typeof SessionAbilities>;

/** No abilities at all (a stored session from before they existed, a row only queued on this device). */
export const NO_SESSION_ABILITIES: SessionAbilities = Object.fromEntries(
  Object.keys(SessionAbilities.shape).map((key) => [key, false]),
) as SessionAbilities;
