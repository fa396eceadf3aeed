import { describe, expect, it } from 'vitest';
import { PERMISSIONS, USER_ROLE_PERMISSIONS } from '@helix/shared';
import { policyActor } from '../testing/policy-actor.ts';
import { canAddModel, modelAbilities } from './model.policy.ts';
import { embedLinkAbilities } from './embed-link.policy.ts';

const model = { id: 1 };
const owner = policyActor({}, [...PERMISSIONS]);
const plainUser = policyActor({ id: 3, isOwner: false }, [...USER_ROLE_PERMISSIONS]);
const platformAdmin = policyActor({ id: 9, tenantId: 100, isOwner: false, isAdmin: true }, [...PERMISSIONS]);

describe('model policy', () => {
  it('the catalogue is the platform admins’: a school’s owner opens and embeds, never edits', () => {
    expect(modelAbilities(owner, model)).toEqual({
      view: true,
      edit: false,
      embed: true,
      delete: false,
      lesson: true,
    });
    expect(canAddModel(owner)).toBe(false);
    expect(modelAbilities(platformAdmin, model)).toEqual({
      view: true,
      edit: true,
      embed: true,
      delete: true,
      lesson: true,
    });
    expect(canAddModel(platformAdmin)).toBe(true);
  });

  it('a plain User opens and shares; without Model.embed (plan) no share or embed', () => {
    expect(modelAbilities(plainUser, model)).toEqual({
      view: true,
      edit: false,
      embed: true,
      delete: false,
      lesson: false,
    });
    const noEmbed = policyActor({ isOwner: false }, ['Model.listing.view', 'Model.view']);
    expect(modelAbilities(noEmbed, model).embed).toBe(false);
  });
});

describe('link policy', () => {
  const link = (over: Partial<{ tenantId: number; createdBy: number; revokedAt: Date | null }> = {}) => ({
    tenantId: over.tenantId ?? 1,
    createdBy: { id: over.createdBy ?? 3 },
    revokedAt: over.revokedAt ?? null,
  });

  it('the owner manages every link of the school; a user only their own', () => {
    expect(embedLinkAbilities(owner, link())).toEqual({ revoke: true, edit: true });
    expect(embedLinkAbilities(plainUser, link())).toEqual({ revoke: true, edit: true });
    expect(embedLinkAbilities(plainUser, link({ createdBy: 4 }))).toEqual({ revoke: false, edit: false });
  });

  it('a revoked link or another tenant’s: nothing', () => {
    expect(embedLinkAbilities(owner, link({ revokedAt: new Date() }))).toEqual({
      revoke: false,
      edit: false,
    });
    expect(embedLinkAbilities(owner, link({ tenantId: 2 }))).toEqual({ revoke: false, edit: false });
  });
});
