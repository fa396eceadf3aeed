/**
 * The demo tenants and logins. Other code and tests rely on these exact values; README.md lists them.
 * The seed (prisma/seed.ts) makes them; the stack's start banner prints the logins from here.
 */
export const PLATFORM_TENANT = {
  domainPrefix: 'services',
  name: 'Helix Platform',
  isPlatform: true,
} as const;
export const DEMO_TENANT = { domainPrefix: 'demo', name: 'Demo School' } as const;

/** The demo tenant's subscription: Educator Monthly, paid and active, 10 seats. */
export const DEMO_SUBSCRIPTION = { planId: 8, userLimit: 10 } as const;

export interface DemoAccount {
  key: 'admin' | 'owner' | 'user';
  tenant: string;
  name: string;
  userName: string;
  email: string;
  password: string;
  isAdmin: boolean;
  isOwner: boolean;
  role: 'Admin' | 'User';
  /** The account that invited this one. */
  parent?: DemoAccount['key'];
}

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    key: 'admin',
    tenant: 'services',
    name: 'Platform Admin',
    userName: 'admin',
    email: 'admin@helix.local',
    password: 'admin-demo-2026',
    isAdmin: true,
    isOwner: false,
    role: 'Admin',
  },
  {
    key: 'owner',
    tenant: 'demo',
    name: 'Olivia Owner',
    userName: 'olivia',
    email: 'owner@demo.helix.local',
    password: 'owner-demo-2026',
    isAdmin: false,
    isOwner: true,
    role: 'Admin',
  },
  {
    key: 'user',
    tenant: 'demo',
    name: 'Uma User',
    userName: 'uma',
    email: 'user@demo.helix.local',
    password: 'user-demo-2026',
    isAdmin: false,
    isOwner: false,
    role: 'User',
    parent: 'owner',
  },
];
