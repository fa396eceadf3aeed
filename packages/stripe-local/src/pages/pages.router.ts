import { Router } from 'express';
import type { Context } from '../core/context.ts';
import { checkoutRouter } from './checkout.page.ts';
import { invoiceRouter } from './invoice.page.ts';
import { portalRouter } from './portal.page.ts';
import { threeDSecureRouter } from './three-d-secure.page.ts';

/** The browser-facing pages: hosted Checkout, the billing portal, hosted invoices and the 3-D Secure challenge. */
export function pageRouter(ctx: Context): Router {
  const router = Router();
  router.use(threeDSecureRouter(ctx));
  router.use(checkoutRouter(ctx));
  router.use(portalRouter(ctx));
  router.use(invoiceRouter(ctx));
  return router;
}
