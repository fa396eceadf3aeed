import { describe, expect, it } from 'vitest';
import type { Permission } from '@helix/shared';
import { abilitiesOf, viewsForSale } from './abilities.policy.ts';
import type { BillingActor } from '../billing/billing.policy.ts';

const plan = { unlimitedViews: false, viewLimit: 1000, additionalViewsPrice: 500 };
const active = { status: 'active' as const, activePayment: true, trialEnd: null, cancelAt: null, plan };

/** What the rules read of an actor: an owner of a customer tenant unless told otherwise. */
function actor(
  over: { isOwner?: boolean; isAdmin?: boolean; isPlatform?: boolean; subscription?: unknown } = {},
  permissions: string[] = ['Subscription.listing.view', 'User.invite', 'Brand.update', 'Model.embed'],
): BillingActor {
  return {
    user: { isOwner: over.isOwner ?? true, isAdmin: over.isAdmin ?? false },
    tenant: {
      isPlatform: over.isPlatform ?? false,
      subscription: 'subscription' in over ? over.subscription : active,
    },
    permissions: permissions as Permission[],
  } as unknown as BillingActor;
}

describe('abilities: what the session says the user may do', () => {
  it('the owner of a plan that sells extra views may buy them', () => {
    expect(abilitiesOf(actor())).toMatchObject({ buyViews: true, manageBilling: true, inviteUsers: true });
  });

  it('a failed renewal (past due) keeps the plan in force: views stay for sale, as the server sells them', () => {
    const pastDue = { ...active, status: 'past_due' as const, activePayment: false };
    expect(viewsForSale(pastDue, [])).toBe(true);
    expect(abilitiesOf(actor({ subscription: pastDue })).buyViews).toBe(true);
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

  it('money is the owner’s: another member with the permission sees the plan but cannot buy', () => {
    expect(abilitiesOf(actor({ isOwner: false }))).toMatchObject({ buyViews: false, manageBilling: false });
  });

  it('platform admins have no billing, do not invite into tenants and have no tenant branding', () => {
    const admin = abilitiesOf(actor({ isAdmin: true, isPlatform: true }, ['Role.create', 'User.invite']));
    expect(admin).toMatchObject({
      buyViews: false,
      manageBilling: false,
      inviteUsers: false,
      editBranding: false,
      createRoles: true,
    });
  });

  it('each permission-only ability follows its permission', () => {
    const none = abilitiesOf(actor({}, []));
    expect(Object.values(none).every((v) => v === false)).toBe(true);
  });
});
