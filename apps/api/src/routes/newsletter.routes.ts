import express, { type Response, type Router } from 'express';
import { z } from 'zod';
import { MSG } from '@helix/shared';
import {
  NewsletterListQuery,
  SubscriberList,
  SubscriberPage,
  UnsubscribeQuery,
} from '@helix/shared/schemas/newsletter';
import { AppError } from '@helix/server';
import type { ServerDeps } from '@helix/server/deps';
import { listSubscribers, subscriberPage } from '@helix/server/newsletter/list-subscribers.query';
import { addressOf, unsubscribe } from '@helix/server/newsletter/unsubscribe.command';
import { actorOf } from '../http/auth.ts';
import { routeLimiter } from '../http/rate-limit.ts';
import { wantsPage } from '../http/paged.ts';
import { inputOf } from '../http/validate.ts';
import { escapeHtml } from '@helix/server/escape-html';
import { html } from '../openapi/describe.ts';
import { API, defineRoute, routerOf, TENANT } from './define-route.ts';

/** GET /subscribers (tenant call, platform admins): one page, or every matching address (the export). */
const subscribers = defineRoute({
  method: 'get',
  path: '/api/t/:tenant/subscribers',
  tag: 'Newsletter',
  summary: 'Newsletter subscribers (one page with page/pageSize, else all)',
  permission: 'Sidebar.listing.view',
  who: 'platform admins',
  query: NewsletterListQuery,
  ok: { schema: z.union([SubscriberPage, SubscriberList]) },
  handler: (deps) => async (req, res) => {
    const query = inputOf(req, NewsletterListQuery);
    res.set('Cache-Control', 'no-store');
    res.json(
      wantsPage(req)
        ? await subscriberPage(deps.db, actorOf(req), query)
        : await listSubscribers(deps.db, actorOf(req), query),
    );
  },
});

export const newsletterTenantRoutes = (deps: ServerDeps): Router => routerOf(deps, TENANT, [subscribers]);

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

const invalid = (res: Response) => page(res, 400, `<p>${escapeHtml(MSG.unsubscribeLinkInvalid)}</p>`);
const limit = (deps: ServerDeps) => [routeLimiter(deps, 'newsletter-unsubscribe')];

/**
 * The unsubscribe link of marketing mail (base calls, no login). GET only shows a confirmation page
 * with a button: mail scanners follow links, so only the POST of that form (or a one-click
 * List-Unsubscribe-Post) removes the address. A link that is not valid is a page too (400).
 */
const unsubscribeRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/newsletter/unsubscribe',
    tag: 'Newsletter',
    summary: 'The unsubscribe confirmation page (HTML)',
    query: UnsubscribeQuery,
    describeOnly: ['query'],
    limited: true,
    ok: [html('Asks to confirm.'), html('The link is not valid.', 400)],
    before: limit,
    handler: (deps) => (req, res) => {
      const parsed = UnsubscribeQuery.safeParse(req.query);
      if (!parsed.success) return invalid(res);
      const { token } = parsed.data;
      let email: string;
      try {
        email = addressOf(deps.config.SIGNING_SECRET, token);
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
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/newsletter/unsubscribe',
    tag: 'Newsletter',
    summary: 'Unsubscribe (the confirmation form, or one-click List-Unsubscribe-Post)',
    body: UnsubscribeQuery,
    bodyType: 'form',
    describeOnly: ['body'],
    limited: true,
    ok: [html('Unsubscribed.'), html('The link is not valid.', 400)],
    before: (deps) => [
      ...limit(deps),
      express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 5 }),
    ],
    handler: (deps) => async (req, res) => {
      const raw = { token: (req.body as Record<string, unknown> | undefined)?.token ?? req.query.token };
      const parsed = UnsubscribeQuery.safeParse(raw);
      if (!parsed.success) return invalid(res);
      try {
        await unsubscribe(deps.db, deps.config.SIGNING_SECRET, parsed.data.token);
      } catch (error) {
        if (error instanceof AppError && error.status === 400) return invalid(res);
        throw error;
      }
      page(res, 200, `<p>${escapeHtml(MSG.unsubscribed)}</p>`);
    },
  }),
];

export const newsletterRoutes = (deps: ServerDeps): Router => routerOf(deps, API, unsubscribeRoutes);
