import { describe, expect, it } from 'vitest';
import { PERMISSIONS, USER_ROLE_PERMISSIONS } from '@helix/shared';
import type { SessionUserRecord } from '../accounts/session-user.include.ts';
import { effectivePermissions, PLAN_GATED_PERMISSIONS, planIsInForce } from './permissions.ts';

const role = (names: readonly string[]) => ({
  role: { permissions: names.map((name) => ({ permission: { name } })) },
});
const plan = (flags: Record<string, boolean> = {}, listed: string[] = []) => ({
  screenRecord: false,
  modelEmbed: false,
  transparentBackgroundWebEmbeding: false,
  unlimitedViews: false,
  fasttrackCustomerSupport: false,
  customBranding: false,
  ...flags,
  permissions: listed.map((name) => ({ permission: { name } })),
});
const user = (opts: { isAdmin?: boolean; roles: readonly string[][]; subscription?: object | null }) =>
  ({
    isAdmin: opts.isAdmin ?? false,
    roles: opts.roles.map(role),
    tenant: { subscription: opts.subscription ?? null },
  }) as unknown as SessionUserRecord;

describe('effective permissions', () => {
  it('gives a platform admin every permission of their roles', () => {
    expect(effectivePermissions(user({ isAdmin: true, roles: [[...PERMISSIONS]] }))).toEqual([
      ...PERMISSIONS,
    ]);
  });

  it('takes the union of roles, drops unknown names and keeps vocabulary order', () => {
    const got = effectivePermissions(
      user({
        roles: [
          ['Profile.view', 'Made.up'],
          ['Model.view', 'Profile.view'],
        ],
      }),
    );
    expect(got).toEqual(['Model.view', 'Profile.view']);
  });

  it('removes the plan features without a plan in force', () => {
    const got = effectivePermissions(
      user({ roles: [[...PERMISSIONS]], subscription: { status: 'none', plan: null } }),
    );
    for (const p of PLAN_GATED_PERMISSIONS) expect(got).not.toContain(p);
    expect(got).toContain('User.invite');
  });

  it('grants a plan feature from a flag or the plan list, never beyond the roles', () => {
    const subscription = {
      status: 'active',
      plan: plan({ modelEmbed: true, customBranding: true }, ['Customersupport']),
    };
    expect(effectivePermissions(user({ roles: [[...PERMISSIONS]], subscription }))).toEqual(
      PERMISSIONS.filter(
        (p) => !['Screen.record', 'Model.unlimited_views', 'Background.transparent'].includes(p),
      ),
    );
    expect(effectivePermissions(user({ roles: [USER_ROLE_PERMISSIONS as string[]], subscription }))).toEqual(
      PERMISSIONS.filter((p) => USER_ROLE_PERMISSIONS.includes(p)),
    );
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
    expect(planIsInForce({ status: 'past_due', cancelAt: null, plan: p } as never, now)).toBe(false);
  });
});
