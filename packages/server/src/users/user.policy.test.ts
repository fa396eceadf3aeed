import { describe, expect, it } from 'vitest';
import { ADMIN_ROLE_PERMISSIONS, PERMISSIONS, USER_ROLE_PERMISSIONS } from '@helix/shared';
import { policyActor } from '../testing/policy-actor.ts';
import { canDeleteUser, canListUsers, canViewUser, tenantUserAbilities } from './user.policy.ts';
import { canResendInvite } from '../invites/invite.policy.ts';

const owner = policyActor({}, [...ADMIN_ROLE_PERMISSIONS]);
const plainUser = policyActor({ id: 3, isOwner: false }, [...USER_ROLE_PERMISSIONS]);
const platformAdmin = policyActor({ id: 9, tenantId: 100, isOwner: false, isAdmin: true }, [...PERMISSIONS]);

const invited = { id: 5, tenantId: 1, isOwner: false, isAdmin: false, hasPassword: false };
const member = { ...invited, id: 6, hasPassword: true };
const theOwner = { ...member, id: 1, isOwner: true };
const elsewhere = { ...invited, id: 7, tenantId: 2 };

describe('user policy', () => {
  it('the owner may view, resend to and delete an invited user of the school', () => {
    expect(tenantUserAbilities(owner, invited)).toEqual({ view: true, resend: true, delete: true });
  });

  it('no resend once the user has a password; never delete the owner or oneself', () => {
    expect(tenantUserAbilities(owner, member)).toEqual({ view: true, resend: false, delete: true });
    expect(tenantUserAbilities(owner, theOwner)).toEqual({ view: true, resend: false, delete: false });
  });

  it('another tenant’s user: nothing', () => {
    expect(tenantUserAbilities(owner, elsewhere)).toEqual({ view: false, resend: false, delete: false });
    expect(canResendInvite(owner, elsewhere)).toBe(false);
  });

  it('a plain User may do nothing with the users', () => {
    expect(canListUsers(plainUser)).toBe(false);
    expect(tenantUserAbilities(plainUser, invited)).toEqual({ view: false, resend: false, delete: false });
  });

  it('a platform admin views any user, never deletes or resends, and has no tenant list', () => {
    expect(canListUsers(platformAdmin)).toBe(false);
    expect(canViewUser(platformAdmin, elsewhere)).toBe(true);
    expect(canDeleteUser(platformAdmin, invited)).toBe(false);
    expect(canResendInvite(platformAdmin, { tenantId: 100, hasPassword: false })).toBe(false);
  });
});
