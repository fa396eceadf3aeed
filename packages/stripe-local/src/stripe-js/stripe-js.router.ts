import { readFileSync } from 'node:fs';
import { Router, type Request, type Response } from 'express';
import type { Context } from '../core/context.ts';

const SOURCE = readFileSync(new URL('./stripe.js', import.meta.url), 'utf8');

/** The Stripe.js stand-in at /v3/ (and /endive/stripe.js, the path @stripe/stripe-js would use). */
export function stripeJsRouter(_ctx: Context): Router {
  const router = Router();
  const send = (_req: Request, res: Response) => {
    res.set('Cache-Control', 'no-cache');
    res.set('Cross-Origin-Resource-Policy', 'cross-origin');
    res.type('application/javascript').send(SOURCE);
  };
  router.get(['/v3', '/v3/', '/endive/stripe.js'], send);
  return router;
}
