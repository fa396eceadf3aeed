import type { SetupIntentView } from '@helix/shared/schemas/billing';
import type { Actor } from '../sessions/session.service.ts';
import { authorizeBilling } from './billing.policy.ts';
import { presentSetupIntent } from './billing.presenter.ts';
import { attachPaymentMethod, customerOf, ownedBy } from './create-subscription.command.ts';
import { idempotencyKey } from './idempotency-key.ts';
import { stripeOf } from './stripe-client.ts';
import { ensureCustomer, serialiseTenantBilling, type BillingDeps } from './tenant-billing.ts';

const PENDING = new Set(['requires_payment_method', 'requires_confirmation', 'requires_action']);

/**
 * POST /api/subscription/setup_intents (base: the caller's own tenant from the session, also right
 * after sign-up): a setup intent to save a card for the trial. A pending one is answered again, so a
 * double click makes one.
 */
export async function createSetupIntent(deps: BillingDeps, actor: Actor): Promise<SetupIntentView> {
  authorizeBilling(actor, 'money');
  return serialiseTenantBilling(actor.tenant.id, async () => {
    const stripe = stripeOf(deps);
    const customer = await ensureCustomer(deps, actor.tenant.id);
    const existing = await stripe.setupIntents.list({ customer, limit: 100 });
    const pending = existing.data.find((si) => PENDING.has(si.status));
    if (pending) return presentSetupIntent(pending);
    const si = await stripe.setupIntents.create(
      {
        customer,
        usage: 'off_session',
        metadata: { tenantId: String(actor.tenant.id) },
      },
      {
        idempotencyKey: idempotencyKey(actor.tenant.id, 'setup-intent', {
          customer,
          generation: existing.data.length,
        }),
      },
    );
    return presentSetupIntent(si);
  });
}

/** POST /subscription/setup_intents/cancel */
export async function cancelSetupIntent(deps: BillingDeps, actor: Actor, input: { intent: string }) {
  authorizeBilling(actor, 'money');
  const stripe = stripeOf(deps);
  const customer = await customerOf(deps, actor);
  const si = await ownedBy(customer, () => stripe.setupIntents.retrieve(input.intent));
  if (si.status === 'canceled' || si.status === 'succeeded') return presentSetupIntent(si);
  return presentSetupIntent(await stripe.setupIntents.cancel(si.id));
}

/** POST /subscription/setup_intents/update: the card the setup intent will save. */
export async function updateSetupIntent(
  deps: BillingDeps,
  actor: Actor,
  input: { setup_intent: string; payment_method_id: string },
) {
  authorizeBilling(actor, 'money');
  const stripe = stripeOf(deps);
  const customer = await customerOf(deps, actor);
  const si = await ownedBy(customer, () => stripe.setupIntents.retrieve(input.setup_intent));
  const pm = await attachPaymentMethod(stripe, customer, input.payment_method_id);
  return presentSetupIntent(await stripe.setupIntents.update(si.id, { payment_method: pm.id }));
}

/**
 * POST /subscription/setup_intents/confirm: confirms with the card. A card that asks for 3-D Secure
 * answers requires_action: the browser finishes it with Stripe.js (confirmCardSetup / handleNextAction).
 */
export async function confirmSetupIntent(
  deps: BillingDeps,
  actor: Actor,
  input: { setup_intent: string; payment_method_id: string },
) {
  authorizeBilling(actor, 'money');
  const stripe = stripeOf(deps);
  const customer = await customerOf(deps, actor);
  const si = await ownedBy(customer, () => stripe.setupIntents.retrieve(input.setup_intent));
  if (si.status === 'succeeded') return presentSetupIntent(si);
  const pm = await attachPaymentMethod(stripe, customer, input.payment_method_id);
  return presentSetupIntent(
    await stripe.setupIntents.confirm(si.id, {
      payment_method: pm.id,
      return_url: new URL('/subscription', deps.config.PUBLIC_URL).toString(),
    }),
  );
}
