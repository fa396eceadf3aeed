import { Router, type Request, type Response } from 'express';
import { completePaymentAuthentication } from '../billing/payment-intents.ts';
import { completeSetupAuthentication } from '../billing/setup-intents.ts';
import type { Context } from '../core/context.ts';
import { resourceMissing } from '../core/errors.ts';
import { formBody } from '../core/http.ts';
import { renderPaymentIntent, renderSetupIntent } from '../core/render.ts';
import { esc, page } from './layout.ts';

function findIntent(ctx: Context, id: string) {
  if (id.startsWith('seti_')) {
    const si = ctx.store.setupIntents.find(id);
    return si ? { kind: 'setup' as const, intent: si } : undefined;
  }
  const pi = ctx.store.paymentIntents.find(id);
  return pi ? { kind: 'payment' as const, intent: pi } : undefined;
}

/** Only a same-server path or an http(s) URL may be a return target. */
const safeReturn = (value: unknown) =>
  typeof value === 'string' && /^(\/[^/\\]|https?:\/\/)/.test(value) ? value : undefined;

/**
 * Stripe's 3-D Secure test page: the challenge of an intent in requires_action, with "Complete
 * authentication" and "Fail authentication". The Stripe.js stand-in posts to the same endpoints from its
 * modal; API tests can too (with the intent's client secret).
 */
export function threeDSecureRouter(ctx: Context): Router {
  const router = Router();
  router.get('/3ds/:id', (req: Request, res: Response) => {
    const found = findIntent(ctx, String(req.params.id));
    if (!found)
      return void res.status(404).send(page('Not found', '<h1>Unknown authentication request</h1>'));
    const { intent } = found;
    const back = safeReturn(req.query.return);
    const amount =
      found.kind === 'payment'
        ? `${(found.intent.amount / 100).toFixed(2)} ${found.intent.currency.toUpperCase()}`
        : 'card set-up';
    const form = (action: 'complete' | 'fail', label: string, cls: string, testid: string) =>
      `<form method="post" action="/3ds/${esc(intent.id)}/${action}">
        <input type="hidden" name="client_secret" value="${esc(intent.clientSecret)}">
        ${back ? `<input type="hidden" name="return" value="${esc(back)}">` : ''}
        <button class="${cls}" data-testid="${testid}">${label}</button></form>`;
    res.send(
      page(
        '3D Secure 2 Test Page',
        `<h1>3D Secure 2 Test Page</h1>
        <p class="muted">This is a test challenge for ${esc(amount)}. Complete or fail the authentication.</p>
        ${intent.status === 'requires_action' ? form('complete', 'Complete authentication', '', 'three-ds-complete') + form('fail', 'Fail authentication', 'danger', 'three-ds-fail') : `<p class="notice">Nothing to authenticate (status ${esc(intent.status)}).</p>`}`,
      ),
    );
  });
  for (const action of ['complete', 'fail'] as const) {
    router.post(`/3ds/:id/${action}`, formBody, (req: Request, res: Response) => {
      const id = String(req.params.id);
      const found = findIntent(ctx, id);
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (!found || body.client_secret !== found.intent.clientSecret) {
        res
          .status(404)
          .json(resourceMissing(found?.kind === 'setup' ? 'setupintent' : 'payment_intent', id).toJSON());
        return;
      }
      if (found.kind === 'setup') completeSetupAuthentication(ctx, found.intent, action === 'complete');
      else completePaymentAuthentication(ctx, found.intent, action === 'complete');
      const back = safeReturn(body.return);
      if (back) return void res.redirect(303, back);
      res.json(
        found.kind === 'setup'
          ? renderSetupIntent(ctx, found.intent)
          : renderPaymentIntent(ctx, found.intent),
      );
    });
  }
  return router;
}
