import { Router, type Request, type Response } from 'express';
import { formatMoney, priceAmount } from '../billing/amounts.ts';
import { attemptInvoice } from '../billing/invoices.ts';
import { attachPaymentMethod, createCardPaymentMethod } from '../billing/payment-methods.ts';
import { updateSubscription } from '../billing/update-subscription.ts';
import type { Context } from '../core/context.ts';
import { StripeError } from '../core/errors.ts';
import { changedFields, emit } from '../core/events.ts';
import { formBody } from '../core/http.ts';
import type { PortalSessionRecord, SubscriptionRecord } from '../core/records.ts';
import { renderCustomer } from '../core/render.ts';
import { cardFields, esc, page, parseExpiry } from './layout.ts';

const date = (ts: number | null) => (ts ? new Date(ts * 1000).toISOString().slice(0, 10) : '');

function liveSubscriptions(ctx: Context, customer: string): SubscriptionRecord[] {
  return ctx.store.subscriptions
    .all()
    .filter(
      (s) =>
        s.customer === customer &&
        ['active', 'trialing', 'past_due', 'incomplete', 'unpaid'].includes(s.status),
    );
}

function describe(ctx: Context, sub: SubscriptionRecord): string {
  const items = sub.items.map((i) => {
    const price = ctx.store.prices.get(i.price);
    const name = ctx.store.products.find(price.product)?.name ?? price.id;
    return `${esc(name)} × ${i.quantity} · ${esc(formatMoney(priceAmount(price, i.quantity), price.currency))} / ${esc(price.recurring?.interval ?? '')}`;
  });
  const status = sub.cancelAtPeriodEnd
    ? `Cancels ${date(sub.cancelAt)}`
    : sub.status === 'trialing'
      ? `Trial ends ${date(sub.trialEnd)}`
      : sub.status === 'past_due'
        ? 'Payment failed'
        : `Renews ${date(sub.periodEnd)}`;
  return `<div class="card" data-testid="portal-subscription" data-subscription="${esc(sub.id)}">
    ${items.map((i) => `<div>${i}</div>`).join('')}
    <div class="muted" data-testid="portal-subscription-status">${esc(status)}</div>
  </div>`;
}

/** The hosted billing portal at a session's `url`: the subscription, cancel, renew, update the card, confirm a plan change, return. */
export function portalRouter(ctx: Context): Router {
  const router = Router();
  const load = (req: Request, res: Response) => {
    const ps = ctx.store.portalSessions.find(String(req.params.id));
    if (!ps) res.status(404).send(page('Not found', '<h1>This session has expired.</h1>'));
    return ps;
  };
  const base = (ps: PortalSessionRecord) => `/p/session/${ps.id}`;
  const back = (ps: PortalSessionRecord) =>
    ps.returnUrl
      ? `<a class="button secondary" href="${esc(ps.returnUrl)}" data-testid="portal-return">Return to ${esc(new URL(ps.returnUrl).host)}</a>`
      : '';
  const done = (ps: PortalSessionRecord, res: Response, notice: string) => {
    const after = ps.flow?.afterCompletion;
    if (after?.type === 'redirect' && after.returnUrl) return void res.redirect(303, after.returnUrl);
    ps.notice = notice;
    res.redirect(303, base(ps));
  };

  function home(ps: PortalSessionRecord, error: string | null = null): string {
    const customer = ctx.store.customers.get(ps.customer);
    const subs = liveSubscriptions(ctx, customer.id);
    const pm = customer.defaultPaymentMethod
      ? ctx.store.paymentMethods.find(customer.defaultPaymentMethod)
      : undefined;
    const notice = ps.notice;
    ps.notice = null;
    const flow = ps.flow;
    let body = '';
    if (flow?.type === 'subscription_cancel' && flow.subscription && !notice) {
      const sub = ctx.store.subscriptions.get(flow.subscription);
      body = `<h1>Cancel your plan</h1>${describe(ctx, sub)}
        <p>Your subscription will be canceled, but is still available until the end of your billing period on ${date(sub.periodEnd)}.</p>
        <form method="post" action="${base(ps)}/cancel/${esc(sub.id)}"><button class="danger" data-testid="portal-confirm-cancel">Cancel plan</button></form>`;
    } else if (flow?.type === 'subscription_update_confirm' && flow.subscription && !notice) {
      const sub = ctx.store.subscriptions.get(flow.subscription);
      const after = flow.items.map((i) => {
        const current = sub.items.find((s) => s.id === i.id);
        const price = ctx.store.prices.get(i.price ?? current?.price ?? '');
        const qty = i.quantity ?? current?.quantity ?? 1;
        return `${esc(ctx.store.products.find(price.product)?.name ?? price.id)} × ${qty} · ${esc(formatMoney(priceAmount(price, qty), price.currency))} / ${esc(price.recurring?.interval ?? '')}`;
      });
      body = `<h1>Confirm your update</h1><h2>Current plan</h2>${describe(ctx, sub)}<h2>New plan</h2>
        <div class="card" data-testid="portal-new-plan">${after.map((a) => `<div>${a}</div>`).join('')}</div>
        <form method="post" action="${base(ps)}/update-confirm"><button data-testid="portal-confirm-update">Confirm</button></form>`;
    } else if (flow?.type === 'payment_method_update' && !notice) {
      body = `<h1>Update payment method</h1>${cardForm(ps)}`;
    } else {
      body = `<h1>${esc(customer.name ?? customer.email ?? 'Billing')}</h1>
        ${notice ? `<div class="notice" data-testid="portal-notice">${esc(notice)}</div>` : ''}
        <h2>Current plan</h2>
        ${
          subs.length
            ? subs
                .map(
                  (s) =>
                    describe(ctx, s) +
                    (s.cancelAtPeriodEnd
                      ? `<form method="post" action="${base(ps)}/renew/${esc(s.id)}"><button class="secondary" data-testid="portal-renew">Renew plan</button></form>`
                      : `<form method="post" action="${base(ps)}/cancel/${esc(s.id)}"><button class="secondary" data-testid="portal-cancel">Cancel plan</button></form>`),
                )
                .join('')
            : '<p class="muted">No active subscription.</p>'
        }
        <h2>Payment method</h2>
        <div class="card" data-testid="portal-payment-method">${pm ? `${esc(pm.card.brand)} •••• ${esc(pm.card.last4)} · Expires ${pm.card.expMonth}/${pm.card.expYear}` : 'None'}</div>
        <details ${error ? 'open' : ''}><summary data-testid="portal-update-card">Update payment method</summary>${cardForm(ps)}</details>`;
    }
    return page(
      'Billing',
      `${error ? `<div class="error" role="alert" data-testid="portal-error">${esc(error)}</div>` : ''}${body}${back(ps)}`,
    );
  }

  const cardForm = (ps: PortalSessionRecord) =>
    `<form method="post" action="${base(ps)}/payment-method">${cardFields()}<button data-testid="portal-save-card">Save</button></form>`;

  router.get('/p/session/:id', (req: Request, res: Response) => {
    const ps = load(req, res);
    if (ps) res.send(home(ps));
  });
  router.post('/p/session/:id/cancel/:sub', formBody, (req: Request, res: Response) => {
    const ps = load(req, res);
    if (!ps) return;
    const sub = ctx.store.subscriptions.find(String(req.params.sub));
    if (!sub || sub.customer !== ps.customer)
      return void res.status(404).send(home(ps, 'No such subscription.'));
    updateSubscription(ctx, sub, { cancelAtPeriodEnd: true });
    done(ps, res, `Your plan will be canceled on ${date(sub.cancelAt)}.`);
  });
  router.post('/p/session/:id/renew/:sub', formBody, (req: Request, res: Response) => {
    const ps = load(req, res);
    if (!ps) return;
    const sub = ctx.store.subscriptions.find(String(req.params.sub));
    if (!sub || sub.customer !== ps.customer)
      return void res.status(404).send(home(ps, 'No such subscription.'));
    updateSubscription(ctx, sub, { cancelAtPeriodEnd: false });
    done(ps, res, 'Your plan has been renewed.');
  });
  router.post('/p/session/:id/update-confirm', formBody, (req: Request, res: Response) => {
    const ps = load(req, res);
    if (!ps?.flow?.subscription) return void (ps && res.status(400).send(home(ps, 'Nothing to confirm.')));
    const sub = ctx.store.subscriptions.get(ps.flow.subscription);
    try {
      updateSubscription(ctx, sub, {
        items: ps.flow.items.map((i) => ({
          id: i.id,
          price: i.price ?? undefined,
          quantity: i.quantity ?? undefined,
        })),
        prorationBehavior: 'always_invoice',
      });
    } catch (error) {
      if (error instanceof StripeError) return void res.status(402).send(home(ps, error.body.message));
      throw error;
    }
    done(ps, res, 'Your plan has been updated.');
  });
  router.post('/p/session/:id/payment-method', formBody, (req: Request, res: Response) => {
    const ps = load(req, res);
    if (!ps) return;
    const body = req.body as Record<string, string | undefined>;
    const expiry = parseExpiry(body.cardExpiry ?? '');
    try {
      const pm = createCardPaymentMethod(ctx, {
        number: body.cardNumber ?? '',
        expMonth: expiry.month,
        expYear: expiry.year,
        cvc: body.cardCvc ?? '',
        name: body.billingName || null,
        postalCode: body.postalCode || null,
      });
      attachPaymentMethod(ctx, pm, ps.customer);
      const customer = ctx.store.customers.get(ps.customer);
      const before = renderCustomer(ctx, customer);
      customer.defaultPaymentMethod = pm.id;
      emit(ctx, 'customer.updated', customer.id, {
        previous: changedFields(before, renderCustomer(ctx, customer)),
      });
      for (const sub of liveSubscriptions(ctx, customer.id)) {
        if (sub.defaultPaymentMethod) updateSubscription(ctx, sub, { defaultPaymentMethod: pm.id });
      }
      // Open invoices still collected automatically are paid with the new card right away, as the
      // portal does; those of ended subscriptions (auto_advance false) are not.
      for (const inv of ctx.store.invoices.all().reverse()) {
        if (inv.customer !== customer.id || inv.status !== 'open' || inv.autoAdvance === false) continue;
        const outcome = attemptInvoice(ctx, inv, { offSession: false, paymentMethod: pm.id });
        if (outcome === 'requires_action')
          return void res.redirect(
            303,
            `/3ds/${inv.paymentIntent}?return=${encodeURIComponent(base(ps) + '/after-payment')}`,
          );
        if (outcome === 'failed')
          return void res
            .status(402)
            .send(
              home(
                ps,
                ctx.store.paymentIntents.get(inv.paymentIntent!).lastError?.message ??
                  'Your card was declined.',
              ),
            );
      }
    } catch (error) {
      if (error instanceof StripeError) return void res.status(402).send(home(ps, error.body.message));
      throw error;
    }
    done(ps, res, 'Your payment method has been updated.');
  });
  router.get('/p/session/:id/after-payment', (req: Request, res: Response) => {
    const ps = load(req, res);
    if (!ps) return;
    const open = ctx.store.invoices
      .all()
      .find((i) => i.customer === ps.customer && i.status === 'open' && i.autoAdvance !== false);
    if (open)
      return void res
        .status(402)
        .send(
          home(
            ps,
            'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
          ),
        );
    done(ps, res, 'Your payment method has been updated.');
  });
  return router;
}
