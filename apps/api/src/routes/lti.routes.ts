import express, { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import {
  LtiClassStats,
  LtiDeepLinkChoice,
  LtiLaunchRequest,
  LtiLoginRequest,
  LtiPickerQuery,
  LtiPlatformDelete,
  LtiPlatformSave,
  LtiPlatformView,
  LtiSettings,
  LtiToolView,
} from '@helix/shared/schemas/lti';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { MSG } from '@helix/shared';
import { AppError } from '@helix/server';
import type { ServerDeps } from '@helix/server/deps';
import { classStats } from '@helix/server/lti/class-stats.query';
import { answerDeepLinking, pickerAgain, startDeepLinking } from '@helix/server/lti/lti-deep-link';
import { ltiError } from '@helix/server/lti/lti-errors';
import { startLtiLogin, verifyLtiLaunch } from '@helix/server/lti/lti-launch';
import { ltiContinueLoginPage, ltiErrorPage, ltiTeachPage, type LtiPage } from '@helix/server/lti/lti-pages';
import {
  deleteLtiPlatform,
  ltiSettings,
  rotateLtiKey,
  saveLtiPlatform,
} from '@helix/server/lti/lti-settings';
import { openLaunchedModel } from '@helix/server/lti/lti-viewer';
import { ltiJwks } from '@helix/server/lti/tool-jwks.query';
import { audited } from '../http/audited.ts';
import { actorOf } from '../http/auth.ts';
import { errorAnswer } from '../http/error-handler.ts';
import { routeLimiter } from '../http/rate-limit.ts';
import { inputOf, NoQuery } from '../http/validate.ts';
import { html, noContent, redirect } from '../openapi/describe.ts';
import { API, defineRoute, mountRoutes, routerOf, TENANT, type RouteHandler } from './define-route.ts';
import { z } from 'zod';

/** A page for the platform's frame, with its own policy (lti-pages.ts) instead of the portal's. */
function sendPage(res: Response, status: number, page: LtiPage): void {
  res.removeHeader('X-Frame-Options');
  res.set('Content-Security-Policy', page.csp);
  res.set('Cache-Control', 'no-store');
  res.set('Referrer-Policy', 'no-referrer');
  res.status(status).type('html').send(page.html);
}

/** The LTI request's fields from the query (GET) or the form body (POST); a malformed one is a page too. */
function fieldsOf<S extends z.ZodType>(req: Request, schema: S, invalid: () => AppError): z.output<S> {
  const raw: unknown = req.method === 'GET' ? req.query : (req.body ?? {});
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalid();
  return parsed.data;
}

/** Every failure of a page route is a page: the message and what to do, never JSON, never a blank frame. */
const pageErrors: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) {
    next(err);
    return;
  }
  const answer = errorAnswer(err, req, res);
  sendPage(res, answer.statusCode, ltiErrorPage(answer.message, answer.code));
};

// The LTI pages are shown inside the learning platform's frame: every answer, failures included, is a
// page with a sentence and an error code (docs/lti.md), never JSON.
const ltiPages = (...statuses: number[]) =>
  statuses.map((status) => html(status < 400 ? 'The page.' : 'What went wrong and who can fix it.', status));

const ltiLimit = (deps: ServerDeps) =>
  routeLimiter(deps, 'lti', {
    limit: deps.config.EMBED_RATE_LIMIT_MAX,
    windowSeconds: deps.config.EMBED_RATE_LIMIT_WINDOW_SECONDS,
  });
const form = () => [express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 200 })];

const login: RouteHandler = (deps) => async (req, res) => {
  const input = fieldsOf(req, LtiLoginRequest, ltiError.loginInvalid);
  const { redirect, atOnce } = await startLtiLogin(deps, input);
  res.set('Cache-Control', 'no-store');
  if (atOnce) res.redirect(302, redirect);
  else sendPage(res, 200, ltiContinueLoginPage(redirect));
};

/** The LTI pages (limited per address), each reading its own fields (fieldsOf): a failure is a page. */
const pageRoutes = (['get', 'post'] as const)
  .map((method) =>
    defineRoute({
      method,
      path: '/api/lti/login',
      tag: 'Classrooms',
      summary: "OIDC login initiation (third-party initiated login): redirects to the platform's auth URL",
      ...(method === 'get'
        ? { query: LtiLoginRequest, describeOnly: ['query' as const] }
        : {
            body: LtiLoginRequest,
            bodyType: 'form' as const,
            describeOnly: ['body' as const],
            before: form,
          }),
      limited: true,
      ok: [
        redirect(
          "The platform's authentication request, with state and nonce: for a hosted platform's sign-in host or a paying school's platform.",
        ),
        html(
          'Any other destination: a page naming the host the sign-in continues at, with a button to it (docs/lti.md).',
        ),
        ...ltiPages(400, 403, 404),
      ],
      handler: login,
    }),
  )
  .concat([
    defineRoute({
      method: 'post',
      path: '/api/lti/launch',
      tag: 'Classrooms',
      summary:
        "The launch: the platform's signed id_token (resource link to the viewer, an instructor's teaching page, or the deep-linking picker)",
      description:
        'The id_token is checked against the platform keyset (signature, iss, aud, azp, exp, nonce once, deployment).',
      body: LtiLaunchRequest,
      bodyType: 'form',
      describeOnly: ['body'],
      limited: true,
      ok: [
        { ...redirect('A resource link: to the viewer with a short-lived ticket.'), status: 303 },
        ...ltiPages(200, 400, 401, 403, 404, 503),
      ],
      before: form,
      handler: (deps) => async (req, res) => {
        const launch = await verifyLtiLaunch(deps, fieldsOf(req, LtiLaunchRequest, ltiError.launchInvalid));
        if (launch.kind === 'resource') {
          const { url, teach } = await openLaunchedModel(deps, launch.platform, launch.claims);
          res.set('Cache-Control', 'no-store');
          // An instructor of a school with live lessons: the viewer inside the page that starts one.
          if (teach) sendPage(res, 200, ltiTeachPage(teach));
          else res.redirect(303, url);
          return;
        }
        sendPage(res, 200, await startDeepLinking(deps, launch.platform, launch.claims));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/lti/deep-link',
      tag: 'Classrooms',
      summary: "The deep-linking picker again (a search in the school's catalogue)",
      query: LtiPickerQuery,
      describeOnly: ['query'],
      limited: true,
      ok: ltiPages(200, 400, 404),
      handler: (deps) => async (req, res) => {
        const input = fieldsOf(req, LtiPickerQuery, ltiError.deepLinkExpired);
        sendPage(
          res,
          200,
          await pickerAgain(deps, input.session, { q: input.q ?? '', selected: input.model }),
        );
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/lti/deep-link',
      tag: 'Classrooms',
      summary:
        "The teacher's choice: a page that posts the signed LtiDeepLinkingResponse back to the platform",
      body: LtiDeepLinkChoice,
      bodyType: 'form',
      describeOnly: ['body'],
      limited: true,
      ok: ltiPages(200, 400, 404, 422),
      before: form,
      handler: (deps) => async (req, res) => {
        const input = fieldsOf(req, LtiDeepLinkChoice, ltiError.deepLinkExpired);
        const { status, page } = await answerDeepLinking(deps, input);
        sendPage(res, status, page);
      },
    }),
  ]);

const TenantParam = z.strictObject({ tenant: z.string().min(1).max(100) });
const jwks = defineRoute({
  method: 'get',
  path: '/api/lti/jwks/:tenant',
  tag: 'Classrooms',
  summary: "The school's public keys as the tool (JWKS): what the platform checks the tool's messages with",
  params: TenantParam,
  limited: true,
  errors: [404],
  ok: {
    schema: z.object({ keys: z.array(z.looseObject({ kid: z.string(), kty: z.string() })) }),
    description: 'The current key and, for 7 days after a rotation, the one before.',
  },
  before: (deps) => [ltiLimit(deps)],
  handler: (deps) => async (req, res) => {
    const keys = await ltiJwks(deps.db, deps.config.SIGNING_SECRET, inputOf(req, TenantParam).tenant);
    res.set('Cache-Control', 'public, max-age=300');
    res.set('Access-Control-Allow-Origin', '*');
    res.json(keys);
  },
});

/**
 * The tool's base calls (docs/lti.md), no session: the platform's login initiation and launch and the
 * deep-linking picker answer pages; the school's public keys answer JSON.
 */
export function ltiRoutes(deps: ServerDeps): Router {
  const pages = Router();
  pages.use(ltiLimit(deps));
  mountRoutes(pages, deps, '/api/lti', pageRoutes);
  // Anything else under /lti is a page too (a platform misconfigured with a wrong address).
  pages.all('/{*rest}', () => {
    throw new AppError(ERROR_CODES.notFound, { status: 404, message: MSG.notFound });
  });
  pages.use(pageErrors);

  const router = routerOf(deps, API, [jwks]);
  router.use('/lti', pages);
  return router;
}

/** The owner's LTI settings and the statistics' views per class (tenant calls). */
const tenantRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/lti',
    tag: 'Classrooms',
    summary: "The school's LTI settings: the tool's addresses and keys, the registered platforms",
    who: "the school's owner",
    query: NoQuery,
    ok: LtiSettings,
    handler: (deps) => async (req, res) => {
      res.set('Cache-Control', 'no-store');
      res.json(await ltiSettings(deps.db, deps.config, actorOf(req)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/lti/platform/save',
    tag: 'Classrooms',
    summary: 'Register or change a learning platform',
    who: "the school's owner",
    body: LtiPlatformSave,
    errors: [409],
    ok: LtiPlatformView,
    after: (deps) => [audited(deps, 'lti.platform.update', 'lti-platform', 'id')],
    handler: (deps) => async (req, res) => {
      res.json(await saveLtiPlatform(deps.db, deps.config, actorOf(req), inputOf(req, LtiPlatformSave)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/lti/platform/delete',
    tag: 'Classrooms',
    summary: 'Remove a learning platform (its activities stop at once)',
    who: "the school's owner",
    body: LtiPlatformDelete,
    ok: noContent(),
    after: (deps) => [audited(deps, 'lti.platform.delete', 'lti-platform', 'id')],
    handler: (deps) => async (req, res) => {
      await deleteLtiPlatform(deps.db, actorOf(req), inputOf(req, LtiPlatformDelete).id);
      res.status(204).end();
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/lti/key/rotate',
    tag: 'Classrooms',
    summary: "Rotate the tool's key (the old one stays published for 7 days)",
    who: "the school's owner",
    body: NoQuery,
    ok: LtiToolView,
    after: (deps) => [audited(deps, 'lti.key.rotate', 'lti-key')],
    handler: (deps) => async (req, res) => {
      res.json(await rotateLtiKey(deps.db, deps.config, actorOf(req)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/stats/classes',
    tag: 'Classrooms',
    summary: 'Views per class (LTI course)',
    who: "the school's owner, or a user with User.listing.view",
    query: NoQuery,
    ok: LtiClassStats,
    handler: (deps) => async (req, res) => {
      res.set('Cache-Control', 'no-store');
      res.json(await classStats(deps, actorOf(req)));
    },
  }),
];

export const ltiTenantRoutes = (deps: ServerDeps): Router => routerOf(deps, TENANT, tenantRoutes);
