import type { SessionAbilities } from '@helix/shared/schemas/abilities';
import { abilitiesOf, type SessionUser } from '../session/session-user';

export interface SettingsMenuItem {
  key: 'profile' | 'branding' | 'subscription' | 'billing-history' | 'users' | 'links' | 'audit-log' | 'lti';
  label: string;
  path: string;
}

interface Rule extends SettingsMenuItem {
  /** The session abilities the item needs (the route guard opens its page by the same). */
  needs: (keyof SessionAbilities)[];
}

const RULES: Rule[] = [
  {
    key: 'profile',
    label: 'Profile',
    path: '/user/settings/profile',
    needs: ['profile', 'editProfile'],
  },
  {
    key: 'branding',
    label: 'Branding',
    path: '/user/settings/branding',
    needs: ['editBranding'],
  },
  {
    key: 'subscription',
    label: 'Subscription',
    path: '/user/settings/subscription',
    needs: ['billing'],
  },
  {
    // Not in the specification (issue 15): the tenant's invoices, with the plan they are about.
    key: 'billing-history',
    label: 'Billing History',
    path: '/user/settings/billing-history',
    needs: ['billing'],
  },
  {
    key: 'users',
    label: 'Users',
    path: '/user/settings/users-list',
    needs: ['tenantUsers'],
  },
  {
    // Not in the specification: owners list and revoke their share and embed links.
    key: 'links',
    label: 'Links',
    path: '/user/settings/links',
    needs: ['links'],
  },
  {
    // Not in the specification (issue 18 point 11): the school's changes, who made them and when.
    key: 'audit-log',
    label: 'Audit log',
    path: '/user/settings/audit-log',
    needs: ['tenantAudit'],
  },
  {
    // Not in the specification (issue 20 point 3): learning platforms (Moodle, Canvas) launch Helix.
    key: 'lti',
    label: 'LMS (LTI)',
    path: '/user/settings/lti',
    needs: ['lti'],
  },
];

/** The settings side menu items this user may see (accounts 6); Exit is always there. */
export function settingsMenuItems(user: SessionUser | null): SettingsMenuItem[] {
  if (!user) return [];
  const can = abilitiesOf(user);
  return RULES.filter((rule) => rule.needs.every((ability) => can[ability])).map(({ key, label, path }) => ({
    key,
    label,
    path,
  }));
}

export function selectedSettingsKey(pathname: string): string | undefined {
  const path = pathname.toLowerCase();
  return RULES.find((rule) => path === rule.path || path.startsWith(`${rule.path}/`))?.key;
}
