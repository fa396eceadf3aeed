import { describe, expect, it } from 'vitest';
import type { Permission } from '@helix/shared';
import { ACTIVE_SUBSCRIPTION, aSessionUser, NO_ABILITIES } from '../session/session-user.fixtures';
import { modelAbilities } from './model-permissions';

const user = aSessionUser;
const active = ACTIVE_SUBSCRIPTION;

describe('modelAbilities', () => {
  it('nobody signed in may do nothing', () => {
    expect(Object.values(modelAbilities(null)).every((v) => v === false)).toBe(true);
  });

  it('each action needs its permission', () => {
    const a = modelAbilities(user(['Model.listing.view', 'Model.view', 'Model.embed']));
    expect(a).toMatchObject({ list: true, view: true, embed: true, add: false, edit: false, remove: false });
    expect(modelAbilities(user(['Model.listing.view'])).view).toBe(false);
    expect(modelAbilities(user(['Model.view'])).list).toBe(false);
  });

  it('add, edit and delete are for admins holding the permission', () => {
    const perms: Permission[] = ['Model.add', 'Model.update', 'Model.delete'];
    expect(modelAbilities(user(perms))).toMatchObject({ add: false, edit: false, remove: false });
    expect(modelAbilities(user(perms, { isAdmin: true }))).toMatchObject({
      add: true,
      edit: true,
      remove: true,
    });
    expect(modelAbilities(user(['Model.add'], { isAdmin: true }))).toMatchObject({ add: true, edit: false });
  });

  it('views information is for non-admins; additional views need Subscription.listing.view', () => {
    expect(modelAbilities(user([], { isAdmin: true })).seeViews).toBe(false);
    expect(modelAbilities(user([])).seeViews).toBe(true);
    expect(modelAbilities(user([])).seeAdditionalViews).toBe(false);
    expect(modelAbilities(user(['Subscription.listing.view'])).seeAdditionalViews).toBe(true);
  });

  it("Add Views is the server's decision (abilities.buyViews), whatever the web could derive", () => {
    const base: Permission[] = ['Subscription.listing.view'];
    const abilities = (buyViews: boolean) => ({ ...NO_ABILITIES, buyViews });
    expect(modelAbilities(user(base, { subscription: active, abilities: abilities(true) })).addViews).toBe(
      true,
    );
    // A failed payment leaves the plan in force: the server still sells views, so the button stays.
    const pastDue = { ...active, status: 'past_due' as const, activePayment: false };
    expect(modelAbilities(user(base, { subscription: pastDue, abilities: abilities(true) })).addViews).toBe(
      true,
    );
    // A plan without a price for extra views, or a member who is not the owner: the server says no.
    expect(modelAbilities(user(base, { subscription: active, abilities: abilities(false) })).addViews).toBe(
      false,
    );
    // A copy stored before abilities existed offers nothing the server might refuse.
    expect(modelAbilities(user(base, { subscription: active })).addViews).toBe(false);
  });
});
