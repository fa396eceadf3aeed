import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '@helix/shared';
import { policyActor } from '../testing/policy-actor.ts';
import { authorize, canAssignRoles, roleAbilities } from './role.policy.ts';

const platformAdmin = policyActor({ isOwner: false, isAdmin: true }, [...PERMISSIONS]);
const owner = policyActor({}, [...PERMISSIONS]);

describe('role policy', () => {
  it('a platform admin edits every role and deletes all but the built-in ones', () => {
    expect(roleAbilities(platformAdmin, { builtIn: false })).toEqual({ edit: true, delete: true });
    expect(roleAbilities(platformAdmin, { builtIn: true })).toEqual({ edit: true, delete: false });
    expect(() => authorize(platformAdmin, 'delete', { builtIn: true })).toThrow();
    expect(canAssignRoles(platformAdmin)).toBe(true);
  });

  it('each ability needs its permission', () => {
    const editor = policyActor({ isAdmin: true }, ['Role.update']);
    expect(roleAbilities(editor, { builtIn: false })).toEqual({ edit: true, delete: false });
  });

  it('a school’s owner manages no role, whatever the permissions', () => {
    expect(roleAbilities(owner, { builtIn: false })).toEqual({ edit: false, delete: false });
    expect(canAssignRoles(owner)).toBe(false);
  });
});
