import type { Permission } from '@helix/shared';
import { hasPermission, type SessionUser } from '../session/session-user';

export interface SettingsMenuItem {
  key: 'profile' | 'branding' | 'subscription' | 'billing-history' | 'users' | 'links' | 'audit-log' | 'lti';
  label: string;
  path: string;
}

interface Rule extends SettingsMenuItem {
  needs: Permission[];
  /** Branding, subscription and users are tenant-owner tools; admins cannot use them. */
  nonAdminOnly: boolean;
  /** The school's owner only (the audit log): not a permission a role can grant. */
  ownerOnly?: boolean;
}

const RULES: Rule[] = [
  {
    key: 'profile',
    label: 'Profile',
    path: '/user/settings/profile',
    needs: ['Profile.view', 'Profile.update'],
    nonAdminOnly: false,
  },
  {
    key: 'branding',
    label: 'Branding',
    path: '/user/settings/branding',
    needs: ['Brand.update'],
    nonAdminOnly: true,
  },
  {
    key: 'subscription',
    label: 'Subscription',
    path: '/user/settings/subscription',
    needs: ['Subscription.listing.view'],
    nonAdminOnly: true,
  },
  {
    // Not in the specification (issue 15): the tenant's invoices, with the plan they are about.
    key: 'billing-history',
    label: 'Billing History',
    path: '/user/settings/billing-history',
    needs: ['Subscription.listing.view'],
    nonAdminOnly: true,
  },
  {
    key: 'users',
    label: 'Users',
    path: '/user/settings/users-list',
    needs: ['User.listing.view'],
    nonAdminOnly: true,
  },
  {
    // Not in the specification: owners list and revoke their share and embed links.
    key: 'links',
    label: 'Links',
    path: '/user/settings/links',
    needs: ['Model.embed'],
    nonAdminOnly: false,
  },
  {
    // Not in the specification (issue 18 point 11): the school's changes, who made them and when.
    key: 'audit-log',
    label: 'Audit log',
    path: '/user/settings/audit-log',
    needs: [],
    nonAdminOnly: true,
    ownerOnly: true,
  },
  {
    // Not in the specification (issue 20 point 3): learning platforms (Moodle, Canvas) launch Helix.
    key: 'lti',
    label: 'LMS (LTI)',
    path: '/user/settings/lti',
    needs: [],
    nonAdminOnly: true,
    ownerOnly: true,
  },
];

/** The settings side menu items this user may see (accounts 6); Exit is always there. */
export function settingsMenuItems(user: SessionUser | null): SettingsMenuItem[] {
  if (!user) return [];
  return RULES.filter(
    (rule) =>
      !(rule.nonAdminOnly && user.isAdmin) &&
      !(rule.ownerOnly && !user.isOwner) &&
      rule.needs.every((p) => hasPermission(user, p)),
  ).map(({ key, label, path }) => ({ key, label, path }));
}

export function selectedSettingsKey(pathname: string): string | undefined {
  const path = pathname.toLowerCase();
  return RULES.find((rule) => path === rule.path || path.startsWith(`${rule.path}/`))?.key;
}
