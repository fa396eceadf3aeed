import type { Permission } from '@helix/shared';
import type { PolicyActor } from '../sessions/session.service.ts';

export interface PolicyActorShape {
  id?: number;
  tenantId?: number;
  isOwner?: boolean;
  isAdmin?: boolean;
  isPlatform?: boolean;
  roles?: string[];
  subscription?: unknown;
}

/**
 * What the policy rules read of an actor, for their unit tests: a school's owner (tenant 1, user 1)
 * with an active plan unless told otherwise.
 */
export function policyActor(over: PolicyActorShape = {}, permissions: Permission[] = []): PolicyActor {
  const tenantId = over.tenantId ?? 1;
  return {
    user: {
      id: over.id ?? 1,
      tenantId,
      isOwner: over.isOwner ?? true,
      isAdmin: over.isAdmin ?? false,
      roles: (over.roles ?? []).map((name, i) => ({ role: { id: i + 1, name, permissions: [] } })),
    },
    tenant: {
      id: tenantId,
      isPlatform: over.isPlatform ?? false,
      subscription: 'subscription' in over ? over.subscription : null,
    },
    permissions,
  } as unknown as PolicyActor;
}
