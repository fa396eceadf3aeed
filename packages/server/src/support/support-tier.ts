import type { SupportTier } from '@helix/shared/support';
import { planInForce } from '../billing/subscription-state.ts';
import type { PolicyActor } from '../sessions/session.service.ts';

/**
 * Fast-track or standard, decided at each request from what is in force now (so a downgrade takes
 * the priority away at the next request): the tenant's plan in force has the fasttrackCustomerSupport
 * flag AND the user's effective permissions include Customersupport (a custom role without it, or a
 * plan listing the permission without the flag, is standard).
 */
export function supportTierOf(actor: PolicyActor, now = new Date()): SupportTier {
  const subscription = actor.tenant.subscription;
  const fastTrack =
    !!subscription?.plan?.fasttrackCustomerSupport &&
    planInForce(subscription, now) &&
    actor.permissions.includes('Customersupport');
  return fastTrack ? 'priority' : 'standard';
}
