import type { Context } from '../core/context.ts';
import { StripeError } from '../core/errors.ts';
import { emit } from '../core/events.ts';
import { newId, randomToken } from '../core/ids.ts';
import type { CheckoutSessionRecord, InvoiceLine } from '../core/records.ts';
import { addInvoicePayment, attemptInvoice, draftInvoice, markPaid } from './invoices.ts';
import { attemptPayment, newPaymentIntent } from './payment-intents.ts';
import { attachPaymentMethod, createCardPaymentMethod, type CardInput } from './payment-methods.ts';
import { confirmSetupIntent } from './setup-intents.ts';
import { createSubscription } from './subscriptions.ts';
import { DAY } from './time.ts';
import { priceAmount } from './amounts.ts';

export type CheckoutResult = { done: true } | { challenge: string } | { error: string };

function ensureCustomer(ctx: Context, cs: CheckoutSessionRecord, email: string | null): string {
  if (cs.customer) return cs.customer;
  const now = ctx.realNow();
  const customer = ctx.store.customers.add({
    id: newId('cus'),
    created: now,
    email: cs.customerEmail ?? email,
    name: null,
    description: null,
    phone: null,
    metadata: {},
    testClock: null,
    defaultPaymentMethod: null,
    deleted: false,
  });
  emit(ctx, 'customer.created', customer.id);
  cs.customer = customer.id;
  return customer.id;
}

/** The hosted page's Pay: a card PaymentMethod, then the session's subscription, payment or set-up. */
export function payCheckout(ctx: Context, cs: CheckoutSessionRecord, card: CardInput): CheckoutResult {
  if (cs.status !== 'open') return { error: 'This Checkout Session is no longer active.' };
  try {
    const pm = createCardPaymentMethod(ctx, card);
    const customerId = ensureCustomer(ctx, cs, card.email ?? null);
    const trial = cs.mode === 'subscription' && cs.subscriptionData.trialPeriodDays;
    if (cs.mode === 'setup' || trial) {
      attachPaymentMethod(ctx, pm, customerId);
      const id = newId('seti');
      const si = ctx.store.setupIntents.add({
        id,
        created: ctx.nowForCustomer(customerId),
        clientSecret: `${id}_secret_${randomToken(25)}`,
        customer: customerId,
        paymentMethod: null,
        paymentMethodTypes: ['card'],
        usage: 'off_session',
        metadata: cs.setupIntentData.metadata,
        description: null,
        status: 'requires_payment_method',
        nextAction: null,
        lastError: null,
        cancellationReason: null,
      });
      emit(ctx, 'setup_intent.created', si.id);
      cs.setupIntent = si.id;
      confirmSetupIntent(ctx, si, pm.id);
      if (si.status === 'requires_action') {
        cs.pendingIntent = si.id;
        return { challenge: si.id };
      }
      return afterSetup(ctx, cs);
    }
    if (cs.mode === 'subscription') {
      attachPaymentMethod(ctx, pm, customerId);
      // A second try after a decline pays the same incomplete subscription's invoice.
      const sub = cs.subscription
        ? ctx.store.subscriptions.get(cs.subscription)
        : createSubscription(ctx, {
            customer: customerId,
            items: cs.lines.map((l) => ({ price: l.price, quantity: l.quantity })),
            trialEnd: null,
            defaultPaymentMethod: pm.id,
            paymentBehavior: 'default_incomplete',
            coupons: [],
            metadata: cs.subscriptionData.metadata,
            description: cs.subscriptionData.description,
            saveDefaultPaymentMethod: 'on_subscription',
            cancelAtPeriodEnd: false,
          });
      sub.defaultPaymentMethod = pm.id;
      cs.subscription = sub.id;
      cs.invoice = sub.latestInvoice;
      const inv = ctx.store.invoices.get(sub.latestInvoice!);
      if (inv.status === 'paid') return finish(ctx, cs);
      const outcome = attemptInvoice(ctx, inv, { offSession: false, paymentMethod: pm.id });
      if (outcome === 'succeeded') return finish(ctx, cs);
      if (outcome === 'requires_action') {
        cs.pendingIntent = inv.paymentIntent;
        return { challenge: inv.paymentIntent! };
      }
      return {
        error:
          ctx.store.paymentIntents.get(inv.paymentIntent!).lastError?.message ?? 'Your card was declined.',
      };
    }
    // payment
    const amount = cs.lines.reduce(
      (sum, l) => sum + priceAmount(ctx.store.prices.get(l.price), l.quantity),
      0,
    );
    let pi = cs.paymentIntent ? ctx.store.paymentIntents.get(cs.paymentIntent) : undefined;
    if (!pi) {
      pi = newPaymentIntent(ctx, {
        amount,
        currency: cs.currency ?? 'usd',
        customer: customerId,
        metadata: cs.paymentIntentData.metadata,
        description: cs.paymentIntentData.description,
      });
      emit(ctx, 'payment_intent.created', pi.id);
      cs.paymentIntent = pi.id;
    }
    pi.paymentMethod = pm.id;
    const outcome = attemptPayment(ctx, pi, false);
    if (outcome === 'succeeded') return finish(ctx, cs);
    if (outcome === 'requires_action') {
      cs.pendingIntent = pi.id;
      return { challenge: pi.id };
    }
    return { error: pi.lastError?.message ?? 'Your card was declined.' };
  } catch (error) {
    if (error instanceof StripeError) return { error: error.body.message };
    throw error;
  }
}

function afterSetup(ctx: Context, cs: CheckoutSessionRecord): CheckoutResult {
  const si = ctx.store.setupIntents.get(cs.setupIntent!);
  if (si.status !== 'succeeded') return { error: si.lastError?.message ?? 'We could not set up your card.' };
  if (cs.mode === 'setup') return finish(ctx, cs);
  const customer = ctx.store.customers.get(cs.customer!);
  const sub = createSubscription(ctx, {
    customer: customer.id,
    items: cs.lines.map((l) => ({ price: l.price, quantity: l.quantity })),
    trialEnd: ctx.nowFor(customer.testClock) + (cs.subscriptionData.trialPeriodDays ?? 0) * DAY,
    defaultPaymentMethod: si.paymentMethod,
    paymentBehavior: 'default_incomplete',
    coupons: [],
    metadata: cs.subscriptionData.metadata,
    description: cs.subscriptionData.description,
    saveDefaultPaymentMethod: 'on_subscription',
    cancelAtPeriodEnd: false,
  });
  cs.subscription = sub.id;
  cs.invoice = sub.latestInvoice;
  return finish(ctx, cs);
}

/** After the 3-D Secure challenge of the hosted page. */
export function continueCheckout(ctx: Context, cs: CheckoutSessionRecord): CheckoutResult {
  if (cs.status === 'complete') return { done: true };
  const pending = cs.pendingIntent;
  cs.pendingIntent = null;
  if (!pending) return { error: 'Nothing is waiting for authentication.' };
  if (pending.startsWith('seti_')) return afterSetup(ctx, cs);
  const pi = ctx.store.paymentIntents.get(pending);
  if (pi.status === 'succeeded') return finish(ctx, cs);
  return {
    error:
      pi.lastError?.message ??
      'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
  };
}

/**
 * Payment mode with `invoice_creation[enabled]`: once the payment succeeded, a paid invoice of the
 * session's lines (billing_reason manual, no subscription) carrying the session's payment, with its
 * events (created, finalized, paid, payment_succeeded), as Stripe's post-payment invoice.
 */
function postPaymentInvoice(ctx: Context, cs: CheckoutSessionRecord): void {
  if (cs.mode !== 'payment' || !cs.invoiceCreation?.enabled || cs.invoice || !cs.paymentIntent) return;
  const pi = ctx.store.paymentIntents.get(cs.paymentIntent);
  const customer = ctx.store.customers.get(cs.customer!);
  const now = ctx.nowFor(customer.testClock);
  const lines: InvoiceLine[] = cs.lines.map((l) => {
    const price = ctx.store.prices.get(l.price);
    const name = ctx.store.products.find(price.product)?.name ?? price.id;
    return {
      id: newId('il'),
      amount: priceAmount(price, l.quantity),
      description: `${l.quantity} × ${name}`,
      price: price.id,
      quantity: l.quantity,
      periodStart: now,
      periodEnd: now,
      proration: false,
      subscriptionItem: null,
    };
  });
  const total = lines.reduce((sum, l) => sum + l.amount, 0);
  const inv = ctx.store.invoices.add(
    draftInvoice({
      id: newId('in'),
      created: now,
      number: `${customer.id.slice(4, 12).toUpperCase()}-${String(++ctx.store.invoiceSequence).padStart(4, '0')}`,
      customer: customer.id,
      subscription: null,
      billingReason: 'manual',
      currency: cs.currency ?? pi.currency,
      lines,
      subtotal: total,
      discountAmount: 0,
      total,
      nextPaymentAttempt: null,
      periodStart: now,
      periodEnd: now,
      coupons: [],
      testClock: customer.testClock,
    }),
  );
  inv.description = cs.invoiceCreation.description;
  inv.metadata = { ...cs.invoiceCreation.metadata };
  emit(ctx, 'invoice.created', inv.id);
  inv.status = 'open';
  inv.finalizedAt = now;
  addInvoicePayment(ctx, inv, pi.id, total, now);
  emit(ctx, 'invoice.finalized', inv.id);
  markPaid(ctx, inv, pi);
  cs.invoice = inv.id;
}

function finish(ctx: Context, cs: CheckoutSessionRecord): CheckoutResult {
  postPaymentInvoice(ctx, cs);
  cs.status = 'complete';
  cs.paymentStatus =
    cs.mode === 'setup' ||
    (cs.mode === 'subscription' && ctx.store.invoices.find(cs.invoice ?? '')?.total === 0)
      ? 'no_payment_required'
      : 'paid';
  cs.lastError = null;
  emit(ctx, 'checkout.session.completed', cs.id);
  return { done: true };
}

export function successRedirect(cs: CheckoutSessionRecord): string {
  return (cs.successUrl ?? '/').replace('{CHECKOUT_SESSION_ID}', cs.id);
}
