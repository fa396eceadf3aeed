import { Router, type Request, type Response } from 'express';
import { formatMoney, priceAmount } from '../billing/amounts.ts';
import { continueCheckout, payCheckout, successRedirect, type CheckoutResult } from '../billing/checkout.ts';
import type { Context } from '../core/context.ts';
import { formBody } from '../core/http.ts';
import type { CheckoutSessionRecord } from '../core/records.ts';
import { cardFields, esc, page, parseExpiry } from './layout.ts';

function checkoutPage(ctx: Context, cs: CheckoutSessionRecord, error: string | null): string {
  const customer = cs.customer ? ctx.store.customers.find(cs.customer) : undefined;
  const lines = cs.lines.map((l) => {
    const price = ctx.store.prices.get(l.price);
    const product = ctx.store.products.find(price.product);
    const amount = priceAmount(price, l.quantity);
    const per = price.recurring ? ` / ${price.recurring.interval}` : '';
    return {
      name: product?.name ?? price.id,
      quantity: l.quantity,
      text: `${formatMoney(amount, price.currency)}${per}`,
      amount,
    };
  });
  const total = lines.reduce((s, l) => s + l.amount, 0);
  const trial = cs.subscriptionData.trialPeriodDays;
  const heading =
    cs.mode === 'setup'
      ? 'Set up your card'
      : trial
        ? `${trial} days free, then ${formatMoney(total, cs.currency ?? 'usd')}`
        : formatMoney(total, cs.currency ?? 'usd');
  const button =
    cs.mode === 'setup'
      ? 'Save card'
      : trial
        ? 'Start trial'
        : cs.mode === 'subscription'
          ? 'Subscribe'
          : 'Pay';
  return page(
    'Checkout',
    `${cs.cancelUrl ? `<a href="${esc(cs.cancelUrl)}" data-testid="checkout-back" class="muted">← Back</a>` : ''}
    <h1 data-testid="checkout-title">${cs.mode === 'subscription' ? 'Subscribe' : cs.mode === 'setup' ? 'Set up payment' : 'Pay'}</h1>
    <div class="total" data-testid="checkout-total">${esc(heading)}</div>
    ${lines.map((l) => `<div class="line"><span>${esc(l.name)} × ${l.quantity}</span><span>${esc(l.text)}</span></div>`).join('')}
    ${error ? `<div class="error" role="alert" data-testid="checkout-error">${esc(error)}</div>` : ''}
    <form method="post" action="/c/pay/${esc(cs.id)}">
      ${cardFields({ value: customer?.email ?? cs.customerEmail, editable: !customer && !cs.customerEmail })}
      <button type="submit" data-testid="checkout-submit">${button}</button>
    </form>`,
  );
}

function answer(ctx: Context, res: Response, cs: CheckoutSessionRecord, result: CheckoutResult): void {
  if ('done' in result) return void res.redirect(303, successRedirect(cs));
  if ('challenge' in result)
    return void res.redirect(
      303,
      `/3ds/${result.challenge}?return=${encodeURIComponent(`/c/pay/${cs.id}/continue`)}`,
    );
  cs.lastError = result.error;
  res.status(402).send(checkoutPage(ctx, cs, result.error));
}

/** The hosted Checkout page at a session's `url`. */
export function checkoutRouter(ctx: Context): Router {
  const router = Router();
  const session = (req: Request, res: Response) => {
    const cs = ctx.store.checkoutSessions.find(String(req.params.id));
    if (!cs)
      res
        .status(404)
        .send(
          page(
            'Not found',
            '<h1>Something went wrong</h1><p>The page you were looking for could not be found.</p>',
          ),
        );
    return cs;
  };
  router.get('/c/pay/:id', (req: Request, res: Response) => {
    const cs = session(req, res);
    if (!cs) return;
    if (cs.status === 'complete') return void res.redirect(303, successRedirect(cs));
    if (cs.status === 'expired' || cs.expiresAt < ctx.nowForCustomer(cs.customer))
      return void res
        .status(410)
        .send(page('Expired', '<h1>This Checkout Session is no longer active.</h1>'));
    res.send(checkoutPage(ctx, cs, null));
  });
  router.post('/c/pay/:id', formBody, (req: Request, res: Response) => {
    const cs = session(req, res);
    if (!cs) return;
    const body = req.body as Record<string, string | undefined>;
    const expiry = parseExpiry(body.cardExpiry ?? '');
    const result = payCheckout(ctx, cs, {
      number: body.cardNumber ?? '',
      expMonth: expiry.month,
      expYear: expiry.year,
      cvc: body.cardCvc ?? '',
      name: body.billingName || null,
      email: body.email || null,
      postalCode: body.postalCode || null,
    });
    answer(ctx, res, cs, result);
  });
  router.get('/c/pay/:id/continue', (req: Request, res: Response) => {
    const cs = session(req, res);
    if (!cs) return;
    answer(ctx, res, cs, continueCheckout(ctx, cs));
  });
  return router;
}
