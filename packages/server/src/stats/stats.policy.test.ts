import { describe, expect, it } from 'vitest';
import { ADMIN_ROLE_PERMISSIONS, USER_ROLE_PERMISSIONS } from '@helix/shared';
import { policyActor } from '../testing/policy-actor.ts';
import { authorizeStats, canViewModelStats, canViewStats, canViewUserStats } from './stats.policy.ts';

describe('stats policy (administration-content 2: admin-only)', () => {
  it('a school’s owner and a user with the Admin role read them', () => {
    expect(canViewStats(policyActor({}, [...ADMIN_ROLE_PERMISSIONS]))).toBe(true);
    const admin = policyActor({ isOwner: false, roles: ['Admin'] }, [...ADMIN_ROLE_PERMISSIONS]);
    expect(canViewModelStats(admin) && canViewUserStats(admin)).toBe(true);
  });

  it('a plain User does not, even holding the listing permissions', () => {
    const plain = policyActor({ isOwner: false, roles: ['User'] }, [
      ...USER_ROLE_PERMISSIONS,
      'User.listing.view',
    ]);
    expect(canViewStats(plain)).toBe(false);
    expect(() => authorizeStats(plain, 'models')).toThrow();
  });

  it('each part needs its listing permission', () => {
    const owner = policyActor({}, ['Model.listing.view']);
    expect(canViewModelStats(owner)).toBe(true);
    expect(canViewUserStats(owner)).toBe(false);
  });
});
