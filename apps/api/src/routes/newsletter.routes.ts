import express, { Router, type Response } from 'express';
import { MSG } from '@helix/shared';
import { NewsletterListQuery, UnsubscribeQuery } from '@helix/shared/schemas/newsletter';
import { AppError } from '@helix/server';
import type { ServerDeps } from '@helix/server/deps';
import { listSubscribers, subscriberPage } from '@helix/server/newsletter/list-subscribers.query';
import { addressOf, unsubscribe } from '@helix/server/newsletter/unsubscribe.command';
import { actorOf } from '../http/auth.ts';
import { routeLimiter } from '../http/rate-limit.ts';
import { wantsPage } from '../http/paged.ts';
import { inputOf, validate } from '../http/validate.ts';
import { escapeHtml } from '@helix/server/escape-html';

/** GET /subscribers (tenant call, platform admins): one page, or every matching address (the export). */
export function newsletterTenantRoutes(deps: ServerDeps): Router {
  const router = Router({ mergeParams: true });
  router.get('/subscribers', validate(NewsletterListQuery, 'query'), async (req, res) => {
    const query = inputOf(req, NewsletterListQuery);
    res.set('Cache-Control', 'no-store');
    res.json(
      wantsPage(req)
        ? await subscriberPage(deps.db, actorOf(req), query)
        : await listSubscribers(deps.db, actorOf(req), query),
    );
  });
  return router;
}

function page(res: Response, status: number, body: string) {
  res
    .status(status)
    .type('html')
    .set('Cache-Control', 'no-store')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
        `<meta name="robots" content="noindex"><title>Helix newsletter</title>` +
        `<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}` +
        `button{background:#5f51fb;color:#fff;border:0;border-radius:6px;padding:.6rem 1.2rem;font-size:1rem;cursor:pointer}</style>` +
        `</head><body><h1>Helix newsletter</h1>${body}</body></html>`,
    );
}

/**
 * The unsubscribe link of marketing mail (base calls, no login). GET only shows a confirmation page
 * with a button: mail scanners follow links, so only the POST of that form (or a one-click
 * List-Unsubscribe-Post) removes the address.
 */
export function newsletterRoutes(deps: ServerDeps): Router {
  const { db, config } = deps;
  const router = Router();
  const limit = routeLimiter(deps, 'newsletter-unsubscribe');
  const form = express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 5 });

  const invalid = (res: Response) => page(res, 400, `<p>${escapeHtml(MSG.unsubscribeLinkInvalid)}</p>`);

  router.get('/newsletter/unsubscribe', limit, (req, res) => {
    const parsed = UnsubscribeQuery.safeParse(req.query);
    if (!parsed.success) return invalid(res);
    const { token } = parsed.data;
    let email: string;
    try {
      email = addressOf(config.SIGNING_SECRET, token);
    } catch {
      return invalid(res);
    }
    page(
      res,
      200,
      `<p>Remove <strong>${escapeHtml(email)}</strong> from the Helix newsletter?</p>` +
        `<form method="post" action="/api/newsletter/unsubscribe"><input type="hidden" name="token" value="${escapeHtml(token)}">` +
        `<button type="submit">Unsubscribe</button></form>`,
    );
  });

  router.post('/newsletter/unsubscribe', limit, form, async (req, res) => {
    const raw = { token: (req.body as Record<string, unknown> | undefined)?.token ?? req.query.token };
    const parsed = UnsubscribeQuery.safeParse(raw);
    if (!parsed.success) return invalid(res);
    try {
      await unsubscribe(db, config.SIGNING_SECRET, parsed.data.token);
    } catch (error) {
      if (error instanceof AppError && error.status === 400) return invalid(res);
      throw error;
    }
    page(res, 200, `<p>${escapeHtml(MSG.unsubscribed)}</p>`);
  });

  return router;
}
