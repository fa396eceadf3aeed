import express, { type NextFunction, type Request, type Response } from 'express';
import { Context, type ContextOptions } from './core/context.ts';
import { StripeError } from './core/errors.ts';
import { formBody, IdempotencyStore, mount, parseForm } from './core/http.ts';
import { WebhookDelivery } from './core/webhooks.ts';
import type { Journal } from './core/journal.ts';
import { catalogEndpoints } from './routes/catalog.routes.ts';
import { customerEndpoints } from './routes/customers.routes.ts';
import { eventEndpoints } from './routes/events.routes.ts';
import { invoiceEndpoints } from './routes/invoices.routes.ts';
import { paymentIntentEndpoints } from './routes/payment-intents.routes.ts';
import { paymentMethodEndpoints } from './routes/payment-methods.routes.ts';
import { setupIntentEndpoints } from './routes/setup-intents.routes.ts';
import { subscriptionEndpoints } from './routes/subscriptions.routes.ts';
import { testClockEndpoints } from './routes/test-clocks.routes.ts';
import { checkoutEndpoints } from './routes/checkout.routes.ts';
import { portalEndpoints } from './routes/portal.routes.ts';
import { pageRouter } from './pages/pages.router.ts';
import { stripeJsRouter } from './stripe-js/stripe-js.router.ts';

export interface LocalServer {
  app: express.Express;
  ctx: Context;
  webhooks: WebhookDelivery;
}

/** Every REST endpoint stripe-local implements. */
export const ENDPOINTS = [
  ...customerEndpoints,
  ...catalogEndpoints,
  ...paymentMethodEndpoints,
  ...setupIntentEndpoints,
  ...paymentIntentEndpoints,
  ...subscriptionEndpoints,
  ...invoiceEndpoints,
  ...checkoutEndpoints,
  ...portalEndpoints,
  ...eventEndpoints,
  ...testClockEndpoints,
];

/** The Express app: Stripe's REST API under /v1, hosted pages, the 3-D Secure challenge and Stripe.js at /v3/. */
export function createServer(options: ContextOptions, journal?: Journal): LocalServer {
  const ctx = new Context(options);
  const webhooks = new WebhookDelivery(ctx);
  // An event leaves only once it (and what it describes) is on disk: a receiver never hears of an object
  // a crash could take back.
  ctx.hooks = {
    deliver: (id) => {
      if (!journal) return webhooks.deliver(id);
      queueMicrotask(() =>
        journal.commit().then(
          () => webhooks.deliver(id),
          () => undefined,
        ),
      );
    },
  };
  const idempotency = new IdempotencyStore(ctx.store);

  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', (text: string) => parseForm(text));
  if (journal) app.use(durableAnswers(journal));

  // Stripe.js calls the API from the portal's origin.
  app.use((req: Request, res: Response, next: NextFunction) => {
    res.set('Access-Control-Allow-Origin', req.get('origin') ?? '*');
    res.set('Vary', 'Origin');
    if (req.method === 'OPTIONS') {
      res.set('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
      res.set(
        'Access-Control-Allow-Headers',
        'Authorization, Content-Type, Stripe-Version, Idempotency-Key, Stripe-Account',
      );
      res.set('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    next();
  });

  const api = express.Router();
  api.use('/v1', formBody);
  mount(api, ctx, idempotency, ENDPOINTS);
  app.use(api);
  app.use('/v1', (req: Request, res: Response) => {
    const error = new StripeError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${req.method}: ${req.originalUrl.split('?')[0]}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    });
    res.status(404).json(error.toJSON());
  });
  app.use(stripeJsRouter(ctx));
  app.use(pageRouter(ctx));
  app.get('/', (_req, res) => {
    res.type('text/plain').send('stripe-local: a Stripe-compatible server for development and tests.\n');
  });
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const e =
      error instanceof StripeError
        ? error
        : new StripeError(500, { type: 'api_error', message: 'An unknown error occurred.' });
    if (!(error instanceof StripeError)) console.error('[stripe-local]', error);
    res.status(e.status).json(e.toJSON());
  });
  return { app, ctx, webhooks };
}

/**
 * Every answer (API, hosted pages, Stripe.js calls) is held until what it shows is on disk: `res.end`
 * waits for the journal's commit, which shares one fsync between concurrent requests. If the disk
 * refuses, the answer becomes a 500 instead of a promise the state cannot keep.
 */
function durableAnswers(journal: Journal) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      if (journal.isClean()) return end(...args);
      journal.commit().then(
        () => end(...args),
        (error: Error) => {
          const body = JSON.stringify(
            new StripeError(500, { type: 'api_error', message: error.message }).toJSON(),
          );
          res.statusCode = 500;
          res.removeHeader('Content-Length');
          res.removeHeader('Location');
          res.setHeader('Content-Type', 'application/json; charset=utf-8');
          end(body);
        },
      );
      return res;
    }) as Response['end'];
    next();
  };
}
