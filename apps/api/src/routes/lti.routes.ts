import express, { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import {
  LtiDeepLinkChoice,
  LtiLaunchRequest,
  LtiLoginRequest,
  LtiPickerQuery,
  LtiPlatformDelete,
  LtiPlatformSave,
} from '@helix/shared/schemas/lti';
import { ERROR_CODES } from '@helix/shared/schemas/outbox';
import { MSG } from '@helix/shared';
import { AppError } from '@helix/server';
import type { ServerDeps } from '@helix/server/deps';
import { classStats } from '@helix/server/lti/class-stats.query';
import { answerDeepLinking, pickerAgain, startDeepLinking } from '@helix/server/lti/lti-deep-link';
import { ltiError } from '@helix/server/lti/lti-errors';
import { startLtiLogin, verifyLtiLaunch } from '@helix/server/lti/lti-launch';
import { ltiContinueLoginPage, ltiErrorPage, type LtiPage } from '@helix/server/lti/lti-pages';
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
import { inputOf, NoQuery, validate } from '../http/validate.ts';
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

/**
 * The tool's base calls (docs/lti.md), no session: the platform's login initiation and launch and the
 * deep-linking picker answer pages; the school's public keys answer JSON.
 */
export function ltiRoutes(deps: ServerDeps): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 200 });
  const limit = routeLimiter(deps, 'lti', {
    limit: deps.config.EMBED_RATE_LIMIT_MAX,
    windowSeconds: deps.config.EMBED_RATE_LIMIT_WINDOW_SECONDS,
  });

  const pages = Router();
  pages.use(limit);

  const login = async (req: Request, res: Response) => {
    const input = fieldsOf(req, LtiLoginRequest, ltiError.loginInvalid);
    const { redirect, atOnce } = await startLtiLogin(deps, input);
    res.set('Cache-Control', 'no-store');
    if (atOnce) res.redirect(302, redirect);
    else sendPage(res, 200, ltiContinueLoginPage(redirect));
  };
  pages.get('/login', login);
  pages.post('/login', form, login);

  pages.post('/launch', form, async (req, res) => {
    const launch = await verifyLtiLaunch(deps, fieldsOf(req, LtiLaunchRequest, ltiError.launchInvalid));
    if (launch.kind === 'resource') {
      const { url } = await openLaunchedModel(deps, launch.platform, launch.claims);
      res.set('Cache-Control', 'no-store');
      res.redirect(303, url);
      return;
    }
    sendPage(res, 200, await startDeepLinking(deps, launch.platform, launch.claims));
  });

  pages.get('/deep-link', async (req, res) => {
    const input = fieldsOf(req, LtiPickerQuery, ltiError.deepLinkExpired);
    sendPage(res, 200, await pickerAgain(deps, input.session, { q: input.q ?? '', selected: input.model }));
  });
  pages.post('/deep-link', form, async (req, res) => {
    const input = fieldsOf(req, LtiDeepLinkChoice, ltiError.deepLinkExpired);
    const { status, page } = await answerDeepLinking(deps, input);
    sendPage(res, status, page);
  });
  // Anything else under /lti is a page too (a platform misconfigured with a wrong address).
  pages.all('/{*rest}', () => {
    throw new AppError(ERROR_CODES.notFound, { status: 404, message: MSG.notFound });
  });
  pages.use(pageErrors);

  const TenantParam = z.strictObject({ tenant: z.string().min(1).max(100) });
  router.get('/lti/jwks/:tenant', limit, validate(TenantParam, 'params'), async (req, res) => {
    const jwks = await ltiJwks(deps.db, deps.config.SIGNING_SECRET, inputOf(req, TenantParam).tenant);
    res.set('Cache-Control', 'public, max-age=300');
    res.set('Access-Control-Allow-Origin', '*');
    res.json(jwks);
  });
  router.use('/lti', pages);
  return router;
}

/** The owner's LTI settings and the statistics' views per class (tenant calls). */
export function ltiTenantRoutes(deps: ServerDeps): Router {
  const router = Router({ mergeParams: true });
  router.get('/lti', validate(NoQuery, 'query'), async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json(await ltiSettings(deps.db, deps.config, actorOf(req)));
  });
  router.post(
    '/lti/platform/save',
    validate(LtiPlatformSave),
    audited(deps, 'lti.platform.update', 'lti-platform', 'id'),
    async (req, res) => {
      res.json(await saveLtiPlatform(deps.db, deps.config, actorOf(req), inputOf(req, LtiPlatformSave)));
    },
  );
  router.post(
    '/lti/platform/delete',
    validate(LtiPlatformDelete),
    audited(deps, 'lti.platform.delete', 'lti-platform', 'id'),
    async (req, res) => {
      await deleteLtiPlatform(deps.db, actorOf(req), inputOf(req, LtiPlatformDelete).id);
      res.status(204).end();
    },
  );
  router.post(
    '/lti/key/rotate',
    validate(NoQuery),
    audited(deps, 'lti.key.rotate', 'lti-key'),
    async (req, res) => {
      res.json(await rotateLtiKey(deps.db, deps.config, actorOf(req)));
    },
  );
  router.get('/stats/classes', validate(NoQuery, 'query'), async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json(await classStats(deps, actorOf(req)));
  });
  return router;
}
