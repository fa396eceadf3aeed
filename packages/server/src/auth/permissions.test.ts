import { describe, expect, it } from 'vitest';
import { ADMIN_ROLE_PERMISSIONS, PERMISSIONS, USER_ROLE_PERMISSIONS, type Permission } from '@helix/shared';
import { DEMO_ACCOUNTS, DEMO_SUBSCRIPTION } from '../../../../prisma/seed/demo-accounts.ts';
import { PLANS } from '../../../../prisma/seed/plans.ts';
import type { SessionUserRecord } from '../sessions/session-user.include.ts';
import { BASE_PERMISSIONS, effectivePermissions, planIsInForce } from './permissions.ts';

const role = (names: readonly string[]) => ({
  role: { permissions: names.map((name) => ({ permission: { name } })) },
});
const plan = (flags: Record<string, boolean> = {}, listed: readonly string[] = []) => ({
  screenRecord: false,
  modelEmbed: false,
  transparentBackgroundWebEmbeding: false,
  unlimitedViews: false,
  fasttrackCustomerSupport: false,
  customBranding: false,
  liveLessons: false,
  ...flags,
  permissions: listed.map((name) => ({ permission: { name } })),
});
const user = (opts: {
  isAdmin?: boolean;
  roles: readonly (readonly string[])[];
  subscription?: object | null;
}) =>
  ({
    isAdmin: opts.isAdmin ?? false,
    roles: opts.roles.map(role),
    tenant: { subscription: opts.subscription ?? null },
  }) as unknown as SessionUserRecord;

/** A plan in force that lists every permission: only the roles decide. */
const everything = { status: 'active', cancelAt: null, plan: plan({}, PERMISSIONS) };
const inVocabularyOrder = (names: Iterable<Permission>) => {
  const wanted = new Set(names);
  return PERMISSIONS.filter((p) => wanted.has(p));
};

describe('effective permissions', () => {
  it('gives a platform admin every permission of their roles, with or without a plan', () => {
    expect(effectivePermissions(user({ isAdmin: true, roles: [[...PERMISSIONS]] }))).toEqual([
      ...PERMISSIONS,
    ]);
    expect(
      effectivePermissions(
        user({ isAdmin: true, roles: [[...PERMISSIONS]], subscription: { status: 'none', plan: null } }),
      ),
    ).toEqual([...PERMISSIONS]);
  });

  it('takes the union of roles, drops unknown names and keeps vocabulary order', () => {
    const got = effectivePermissions(
      user({
        roles: [
          ['Profile.view', 'Made.up'],
          ['Model.view', 'Profile.view'],
        ],
        subscription: everything,
      }),
    );
    expect(got).toEqual(['Model.view', 'Profile.view']);
  });

  it('keeps only the base permissions without a plan in force', () => {
    const base = inVocabularyOrder(BASE_PERMISSIONS);
    expect(base).toEqual(['Profile.update', 'Profile.view', 'Subscription.listing.view']);
    const now = new Date('2026-01-01');
    for (const subscription of [
      null,
      { status: 'none', cancelAt: null, plan: null },
      { status: 'deactivated', cancelAt: null, plan: plan({ modelEmbed: true }, PERMISSIONS) },
      { status: 'canceled', cancelAt: new Date('2025-12-01'), plan: plan({}, PERMISSIONS) },
    ]) {
      expect(
        effectivePermissions(user({ roles: [[...PERMISSIONS]], subscription }), now),
        JSON.stringify(subscription),
      ).toEqual(base);
    }
    // Never beyond the roles: a user without Subscription.listing.view does not get it.
    expect(effectivePermissions(user({ roles: [USER_ROLE_PERMISSIONS] }))).toEqual([
      'Profile.update',
      'Profile.view',
    ]);
  });

  it("limits a non-admin to the plan's permission list, whatever their roles hold", () => {
    const subscription = {
      status: 'active',
      cancelAt: null,
      plan: plan({}, ['Model.listing.view', 'Model.view', 'Profile.view', 'User.invite']),
    };
    expect(effectivePermissions(user({ roles: [[...PERMISSIONS]], subscription }))).toEqual([
      'Model.listing.view',
      'Model.view',
      'Profile.view',
      'User.invite',
    ]);
    // Role administration and catalogue editing are not in any plan: an owner with the Admin role
    // does not get them.
    const got = effectivePermissions(user({ roles: [ADMIN_ROLE_PERMISSIONS], subscription }));
    for (const p of ['Model.add', 'Model.update', 'Model.delete', 'Role.create', 'Role.assign'] as const)
      expect(got).not.toContain(p);
  });

  it('grants a plan feature from a flag or the plan list, never beyond the roles', () => {
    const subscription = {
      status: 'active',
      cancelAt: null,
      plan: plan({ modelEmbed: true, customBranding: true }, ['Customersupport', 'Profile.view']),
    };
    expect(effectivePermissions(user({ roles: [[...PERMISSIONS]], subscription }))).toEqual([
      'Brand.update',
      'Model.embed',
      'Profile.view',
      'Customersupport',
    ]);
    expect(effectivePermissions(user({ roles: [USER_ROLE_PERMISSIONS], subscription }))).toEqual([
      'Model.embed',
      'Profile.view',
    ]);
  });

  it('keeps what the seeded demo tenant (Educator, active) had: its users lose nothing they use', () => {
    const educator = PLANS.find((p) => p.id === DEMO_SUBSCRIPTION.planId)!;
    expect(educator.name).toBe('Educator Monthly');
    const subscription = {
      status: 'active',
      cancelAt: null,
      plan: plan(
        {
          screenRecord: educator.screenRecord,
          modelEmbed: educator.modelEmbed,
          transparentBackgroundWebEmbeding: educator.transparentBackgroundWebEmbeding,
          unlimitedViews: educator.unlimitedViews,
          fasttrackCustomerSupport: educator.fasttrackCustomerSupport,
          customBranding: educator.customBranding,
          liveLessons: educator.liveLessons,
        },
        educator.permissions,
      ),
    };
    const rolePermissions = { Admin: ADMIN_ROLE_PERMISSIONS, User: USER_ROLE_PERMISSIONS };
    const of = (key: 'owner' | 'user') => {
      const account = DEMO_ACCOUNTS.find((a) => a.key === key)!;
      return effectivePermissions(user({ roles: [rolePermissions[account.role]], subscription }));
    };
    expect(of('user')).toEqual(PERMISSIONS.filter((p) => USER_ROLE_PERMISSIONS.includes(p)));
    // ... and the owner (Admin role) leads live lessons, which Educator sells (issue 32).
    expect(of('owner')).toEqual([
      'Brand.update',
      'Model.embed',
      'Model.listing.view',
      'Model.view',
      'Profile.update',
      'Profile.view',
      'Screen.record',
      'Subscription.listing.view',
      'User.delete',
      'User.detail.view',
      'User.invite',
      'User.listing.view',
      'User.update',
      'Lesson.lead',
    ]);
  });

  it('gives Lesson.lead only while the plan in force sells live lessons', () => {
    const admin = [ADMIN_ROLE_PERMISSIONS];
    const withFlag = { status: 'active', cancelAt: null, plan: plan({ liveLessons: true }) };
    const without = { status: 'active', cancelAt: null, plan: plan({}, ['Model.view']) };
    expect(effectivePermissions(user({ roles: admin, subscription: withFlag }))).toContain('Lesson.lead');
    expect(effectivePermissions(user({ roles: admin, subscription: without }))).not.toContain('Lesson.lead');
    const ended = { status: 'canceled', cancelAt: new Date('2020-01-01'), plan: plan({ liveLessons: true }) };
    expect(effectivePermissions(user({ roles: admin, subscription: ended }))).not.toContain('Lesson.lead');
  });

  it('counts a cancelled plan until its end date', () => {
    const now = new Date('2026-01-01');
    const p = plan();
    expect(
      planIsInForce({ status: 'canceled', cancelAt: new Date('2026-02-01'), plan: p } as never, now),
    ).toBe(true);
    expect(
      planIsInForce({ status: 'canceled', cancelAt: new Date('2025-12-01'), plan: p } as never, now),
    ).toBe(false);
    expect(planIsInForce({ status: 'trialing', cancelAt: null, plan: p } as never, now)).toBe(true);
    // Payment failed: in force (with the banner) while Stripe retries; deactivated when it gives up.
    expect(planIsInForce({ status: 'past_due', cancelAt: null, plan: p } as never, now)).toBe(true);
    expect(planIsInForce({ status: 'deactivated', cancelAt: null, plan: p } as never, now)).toBe(false);
  });
});
