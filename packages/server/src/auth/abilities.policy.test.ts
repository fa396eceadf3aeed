import { describe, expect, it } from 'vitest';
import { ADMIN_ROLE_PERMISSIONS, PERMISSIONS, USER_ROLE_PERMISSIONS } from '@helix/shared';
import { abilitiesOf, viewsForSale } from './abilities.policy.ts';
import { policyActor } from '../testing/policy-actor.ts';

const plan = { unlimitedViews: false, viewLimit: 1000, additionalViewsPrice: 500 };
const active = { status: 'active' as const, activePayment: true, trialEnd: null, cancelAt: null, plan };

// A plan that sells extra views: without Model.unlimited_views.
const limited = ADMIN_ROLE_PERMISSIONS.filter((p) => p !== 'Model.unlimited_views');
const owner = policyActor({ subscription: active, roles: ['Admin'] }, limited);
const schoolAdmin = policyActor({ id: 2, isOwner: false, subscription: active, roles: ['Admin'] }, [
  ...ADMIN_ROLE_PERMISSIONS,
]);
const plainUser = policyActor({ id: 3, isOwner: false, subscription: active, roles: ['User'] }, [
  ...USER_ROLE_PERMISSIONS,
]);
const platformAdmin = policyActor({ isOwner: false, isAdmin: true, isPlatform: true, roles: ['Admin'] }, [
  ...PERMISSIONS,
]);

describe('session abilities: what the session says the user may open and do', () => {
  it('the owner of a plan that sells extra views may buy them', () => {
    expect(abilitiesOf(owner)).toMatchObject({
      buyViews: true,
      manageBilling: true,
      inviteUsers: true,
      editBranding: true,
    });
  });

  it('a failed renewal (past due) keeps the plan in force: views stay for sale, as the server sells them', () => {
    const pastDue = { ...active, status: 'past_due' as const, activePayment: false };
    expect(viewsForSale(pastDue, [])).toBe(true);
    expect(abilitiesOf(policyActor({ subscription: pastDue }, ['Subscription.listing.view'])).buyViews).toBe(
      true,
    );
  });

  it('no views for sale: no price, unlimited, no plan, ended plan, Model.unlimited_views', () => {
    expect(viewsForSale({ ...active, plan: { ...plan, additionalViewsPrice: 0 } }, [])).toBe(false);
    expect(viewsForSale({ ...active, plan: { ...plan, unlimitedViews: true } }, [])).toBe(false);
    expect(viewsForSale({ ...active, plan: { ...plan, viewLimit: 0 } }, [])).toBe(false);
    expect(viewsForSale({ ...active, plan: null }, [])).toBe(false);
    expect(viewsForSale(null, [])).toBe(false);
    expect(viewsForSale({ ...active, status: 'deactivated' as const, activePayment: false }, [])).toBe(false);
    expect(viewsForSale(active, ['Model.unlimited_views'])).toBe(false);
  });

  it('a school’s owner: the school’s pages, its audit log and LTI, statistics; no platform page', () => {
    expect(abilitiesOf(owner)).toMatchObject({
      home: true,
      subscription: true,
      billing: true,
      tenantUsers: true,
      tenantUserDetail: true,
      tenantAudit: true,
      lti: true,
      stats: true,
      modelStats: true,
      userStats: true,
      classStats: true,
      seeViewUsage: true,
      projects: true,
      platformUsers: false,
      catalogue: false,
      roles: false,
      adminSidebar: false,
      addModel: false,
      createRole: false,
    });
  });

  it('a school user with the Admin role: statistics and users, but not the owner’s money, log or LTI', () => {
    expect(abilitiesOf(schoolAdmin)).toMatchObject({
      stats: true,
      tenantUsers: true,
      inviteUsers: true,
      buyViews: false,
      tenantAudit: false,
      lti: false,
    });
  });

  it('a plain User: the home grid, links and profile; no statistics (administration-content 2)', () => {
    const can = abilitiesOf(plainUser);
    expect(can).toMatchObject({ home: true, links: true, profile: true, subscription: true });
    expect(can).toMatchObject({ stats: false, modelStats: false, userStats: false, classStats: false });
    expect(can).toMatchObject({ tenantUsers: false, inviteUsers: false, billing: false, projects: false });
  });

  it('a plain User holding listing permissions still reads no statistics', () => {
    const widened = policyActor({ isOwner: false, subscription: active, roles: ['User'] }, [
      'Model.listing.view',
      'User.listing.view',
    ]);
    expect(abilitiesOf(widened)).toMatchObject({ stats: false, tenantUsers: true });
  });

  it('a platform admin: the platform pages, no school page, no billing, no invites into tenants', () => {
    expect(abilitiesOf(platformAdmin)).toMatchObject({
      platformUsers: true,
      platformUserDetail: true,
      addPlatformUser: true,
      platformPermissions: true,
      catalogue: true,
      roles: true,
      newsletter: true,
      supportQueue: true,
      platformAudit: true,
      adminSidebar: true,
      stats: true,
      addModel: true,
      createRole: true,
      home: false,
      subscription: false,
      billing: false,
      tenantUsers: false,
      inviteUsers: false,
      editBranding: false,
      buyViews: false,
      seeViewUsage: false,
      tenantAudit: false,
      lti: false,
    });
  });

  it('without permissions a school member may open nothing', () => {
    const none = abilitiesOf(policyActor({ isOwner: false }, []));
    expect(Object.entries(none).filter(([, v]) => v)).toEqual([['subscription', true]]);
  });
});
