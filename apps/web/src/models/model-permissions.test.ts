import { describe, expect, it } from 'vitest';
import type { Permission } from '@helix/shared';
import { ACTIVE_SUBSCRIPTION, aSessionUser } from '../session/session-user.fixtures';
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

  it('Add Views: active subscription, no unlimited views, Subscription.listing.view', () => {
    const base: Permission[] = ['Subscription.listing.view'];
    expect(modelAbilities(user(base, { subscription: active })).addViews).toBe(true);
    expect(modelAbilities(user(base)).addViews).toBe(false);
    expect(modelAbilities(user(base, { subscription: { ...active, activePayment: false } })).addViews).toBe(
      false,
    );
    expect(modelAbilities(user([...base, 'Model.unlimited_views'], { subscription: active })).addViews).toBe(
      false,
    );
    // The shared subscription state: a trial is an active subscription, a deactivated plan is not.
    const trialing = {
      ...active,
      status: 'trialing' as const,
      trialEnd: Math.floor(Date.now() / 1000) + 86_400,
    };
    expect(modelAbilities(user(base, { subscription: trialing })).addViews).toBe(true);
    const deactivated = { ...active, status: 'deactivated' as const, activePayment: false };
    expect(modelAbilities(user(base, { subscription: deactivated })).addViews).toBe(false);
    expect(modelAbilities(user([], { subscription: active })).addViews).toBe(false);
    expect(modelAbilities(user(base, { subscription: active, isAdmin: true })).addViews).toBe(false);
  });
});
