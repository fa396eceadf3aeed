import express, { type Express } from 'express';
import type { ServerDeps } from '@helix/server/deps';
import './http/types.ts';
import { auth, tenantParam } from './http/auth.ts';
import { jsonBody } from './http/json-body.ts';
import { refuseUnstorablePath } from './http/unsafe-text.ts';
import { apiNotFound, errorHandler, type AppOutages } from './http/error-handler.ts';
import { watchDatabase } from '@helix/server/health/watch-database';
import { watchRedis } from '@helix/server/redis';
import { requestLogger } from './http/request-logger.ts';
import { httpMetrics } from './http/http-metrics.ts';
import { metricsRoutes } from './routes/metrics.routes.ts';
import { registerDbPool, registerQueueDepth, registerViewBuffer } from '@helix/server/metrics/collectors';
import { startProcessMetrics } from '@helix/server/metrics/metrics';
import { poolOf } from '@helix/server/db';
import { EMBEDDABLE, securityHeaders } from './http/security.ts';
import { servePublicPathsFirst } from './http/public-path.ts';
import { embedFramePolicy } from './http/embed-frame-policy.ts';
import { publicLinkPage } from './http/public-link-page.ts';
import { loadServerBundle } from './http/server-render-support.ts';
import {
  brandedLogin,
  CHOOSE_SUBSCRIPTION,
  guestRenderedPage,
  lessonJoin,
} from './http/server-render-guest.ts';
import { serverRenderedPage } from './http/server-render.ts';
import { webApp } from './http/web-app.ts';
import { auditRoutes } from './routes/audit.routes.ts';
import { googleRoutes } from './routes/auth-google.routes.ts';
import { billingBaseRoutes, billingTenantRoutes, billingWebhookRoutes } from './routes/billing.routes.ts';
import { devMailRoutes } from './routes/dev-mail.routes.ts';
import { healthRoutes } from './routes/health.routes.ts';
import { referenceRoutes } from './routes/reference.routes.ts';
import { Draining } from './http/draining.ts';
import { logsRoutes } from './routes/logs.routes.ts';
import { embedRoutes, modelTenantRoutes } from './routes/model.routes.ts';
import { pinnedModelTenantRoutes } from './routes/pinned-model.routes.ts';
import { newsletterRoutes, newsletterTenantRoutes } from './routes/newsletter.routes.ts';
import { platformUserRoutes } from './routes/platform-users.routes.ts';
import { roleRoutes } from './routes/roles.routes.ts';
import { planRoutes, planTenantRoutes } from './routes/plans.routes.ts';
import { brandingRoutes, brandingTenantRoutes } from './routes/branding.routes.ts';
import { profileTenantRoutes } from './routes/profile.routes.ts';
import { userRoutes, userTenantRoutes } from './routes/user.routes.ts';
import { invitationRoutes } from './routes/invitation.routes.ts';
import { legalRoutes } from './routes/legal.routes.ts';
import { BULK_INVITE_PATH, bulkInviteBodyParser, usersRoutes } from './routes/users.routes.ts';
import { viewerModelRoute, viewerRoutes } from './routes/viewer.routes.ts';
import { oembedRoutes } from './routes/oembed.routes.ts';
import { supportRoutes } from './routes/support.routes.ts';
import { statsRoutes } from './routes/stats.routes.ts';
import { ltiRoutes, ltiTenantRoutes } from './routes/lti.routes.ts';
import { viewCommands } from '@helix/server/views/view-store';
import { lessonRoutes, lessonTenantRoutes } from './routes/lessons.routes.ts';
import { LessonRealtime } from './lessons/lesson-realtime.ts';

export type AppDeps = ServerDeps;

/** JSON bodies above this are refused with 413. */
const JSON_BODY_LIMIT = '100kb';

/**
 * The HTTP app (no listen): base calls under /api, tenant calls under /api/t/:tenant (session first,
 * then the path tenant must be the caller's), the dev mail page, the built web app.
 */
export function createApp(deps: AppDeps, draining = new Draining()): Express {
  const { config } = deps;
  const app = express();
  app.disable('x-powered-by');
  // Live lessons' real time (socket.io, attached to the HTTP server by main.ts): the REST calls tell
  // the class through it.
  app.locals.lessons = new LessonRealtime(deps, draining);
  // JSON answers escape <, > and & (\u003c...): a stored '<script>' can never be read as markup.
  app.set('json escape', true);
  // Only the proxy's own addresses are believed for X-Forwarded-* (config.ts, TRUST_PROXY).
  if (config.TRUST_PROXY !== false) app.set('trust proxy', config.TRUST_PROXY);
  // Each dependency's outage is logged once when it starts and once when it ends (error-handler.ts).
  const outages: AppOutages = {
    redis: watchRedis(deps.redis, deps.logger),
    database: watchDatabase(deps.db, deps.logger),
  };
  app.locals.outages = outages;
  // The view scripts are defined before the first request: defined on first use, a call meeting an
  // auto-pipeline already pending on the client in the same tick failed (view-commands.test.ts).
  viewCommands(deps.redis);

  startProcessMetrics('api');
  registerQueueDepth(deps.queue);
  registerViewBuffer(deps.redis, config.REDIS_PREFIX);
  const pool = poolOf(deps.db);
  if (pool) registerDbPool(pool);

  // Every request's first steps: the drain, the request's id and log line, its metrics.
  const first = [draining.middleware(), requestLogger(deps.logger)];
  app.use(...first, httpMetrics());
  const web = config.WEB_DIST_DIR ? serverRenderedPages(deps, config.WEB_DIST_DIR) : null;
  // The guest pages are rendered at the server's first request (the start-up's health check).
  const warm = web ? [web.chooseSubscription.warm] : [];
  if (web) app.use(web.chooseSubscription.warm);
  // A share or embed page of a link limited to some sites: its frame-ancestors (before the headers).
  const framePolicy = embedFramePolicy(deps);
  const headers = securityHeaders(config);
  app.use(framePolicy, headers);
  // Share and embed pages, drawn by the server: before everything a public page does not use.
  const linkPage = config.WEB_DIST_DIR ? publicLinkPage(deps, config.WEB_DIST_DIR) : null;
  if (linkPage) app.use(linkPage);
  app.use(metricsRoutes(deps));
  // The page and the viewer's call, served before the router with the same steps (http/public-path.ts).
  servePublicPathsFirst(app, [
    ...(linkPage
      ? [
          {
            methods: ['GET', 'HEAD'],
            path: EMBEDDABLE,
            ready: linkPage.ready,
            steps: [...first, httpMetrics(), ...warm, framePolicy, headers, linkPage, errorHandler],
          },
        ]
      : []),
    {
      methods: ['GET', 'HEAD'],
      path: /^\/api\/viewer\/model$/,
      steps: [
        ...first,
        httpMetrics(viewerModelRoute.path),
        ...warm,
        headers,
        ...viewerModelRoute.chain(deps),
        errorHandler,
      ],
    },
  ]);

  // NUL or a lone surrogate in a path: a 400 before any route (http/unsafe-text.ts).
  app.use('/api', refuseUnstorablePath);
  app.use('/api', healthRoutes(deps, draining));
  // The API reference: /api/openapi.json and the interactive /api/docs (apps/api/API.md).
  app.use('/api', referenceRoutes());
  // The viewer's calls (the page load's one call, the model file, public images): no body, no session,
  // so before the body parser and the routers a public load has no use for.
  app.use('/api', viewerRoutes(deps));
  // The bulk invite alone takes a large body, and only from a signed-in caller of that tenant.
  app.post(BULK_INVITE_PATH, auth(deps.db), tenantParam(), bulkInviteBodyParser);
  // Stripe signs the raw body: the webhook reads it before the JSON parser does.
  app.use('/api', billingWebhookRoutes(deps));
  app.use('/api', jsonBody({ limit: JSON_BODY_LIMIT }));
  app.use('/api', logsRoutes(deps));
  app.use('/api', userRoutes(deps));
  app.use('/api', invitationRoutes(deps));
  app.use('/api', googleRoutes(deps));
  app.use('/api', planRoutes(deps));
  app.use('/api', brandingRoutes(deps));
  app.use('/api', embedRoutes(deps));
  app.use('/api', oembedRoutes(deps));
  app.use('/api', newsletterRoutes(deps));
  app.use('/api', billingBaseRoutes(deps));
  // LTI 1.3: the platforms' login initiation and launch, the deep-linking picker, the tool keys.
  app.use('/api', ltiRoutes(deps));
  // Live lessons: the pupils' join by code (public; a session is used when present).
  app.use('/api', lessonRoutes(deps));

  const tenantScope = express.Router({ mergeParams: true });
  tenantScope.use(auth(deps.db), tenantParam());
  tenantScope.use(userTenantRoutes(deps));
  // Before the tenant users routes: GET /user/all answers every user for a platform admin.
  tenantScope.use(platformUserRoutes(deps));
  tenantScope.use(usersRoutes(deps));
  tenantScope.use(roleRoutes(deps));
  tenantScope.use(newsletterTenantRoutes(deps));
  tenantScope.use(planTenantRoutes(deps));
  tenantScope.use(brandingTenantRoutes(deps));
  tenantScope.use(profileTenantRoutes(deps));
  tenantScope.use(modelTenantRoutes(deps));
  tenantScope.use(pinnedModelTenantRoutes(deps));
  tenantScope.use(billingTenantRoutes(deps));
  tenantScope.use(supportRoutes(deps));
  tenantScope.use(auditRoutes(deps));
  tenantScope.use(statsRoutes(deps));
  tenantScope.use(ltiTenantRoutes(deps));
  tenantScope.use(lessonTenantRoutes(deps));
  app.use('/api/t/:tenant', tenantScope);

  app.use('/api', apiNotFound);
  // The Terms of Service and Privacy Policy links: the default pages, or redirects to TERMS_URL/PRIVACY_URL.
  app.use(legalRoutes(deps));

  if (config.DEV_MAIL_DIR && config.NODE_ENV !== 'production') {
    app.use('/dev/mail', devMailRoutes(config.DEV_MAIL_DIR));
  }
  if (web) {
    app.get('/user/home', web.session('home page'));
    app.get('/user/settings/users-list', web.session('users list'));
    app.get('/user/settings/subscription', web.session('subscription page'));
    app.get('/choose-subscription', web.chooseSubscription.page);
    app.get(['/login', '/login/:brand'], web.login.page);
    app.get(['/join', '/join/:code'], web.join.page);
    app.use(webApp(web.dist, { portalHost: web.portalHost, googleSignIn: web.googleSignIn }));
  }

  app.use(errorHandler);
  return app;
}

/**
 * The pages the server renders with the web app's server bundle (http/server-render*.ts): one bundle
 * for all of them, loaded as the server starts (its first import takes seconds on a busy machine,
 * which no visitor's first page should wait for).
 */
function serverRenderedPages(deps: AppDeps, dist: string) {
  const { config } = deps;
  const portalHost = new URL(config.PUBLIC_URL).hostname;
  const renderer = loadServerBundle(dist);
  void renderer().catch((err: unknown) => deps.logger.warn({ err }, 'web server bundle failed to load'));
  const options = { webDist: dist, portalHost, renderer };
  // The login and sign-up offer Google sign-in only when the server can do it (routes/auth-google.routes.ts).
  const googleSignIn = Boolean(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET);
  return {
    dist,
    portalHost,
    googleSignIn,
    session: (page: string) => serverRenderedPage(deps, options, page),
    chooseSubscription: guestRenderedPage(
      deps,
      { ...options, googleSignIn, warm: CHOOSE_SUBSCRIPTION },
      (req) => (req.hostname === portalHost ? CHOOSE_SUBSCRIPTION : null),
    ),
    login: guestRenderedPage(deps, { ...options, googleSignIn }, brandedLogin(deps, portalHost)),
    join: guestRenderedPage(deps, { ...options, googleSignIn }, lessonJoin),
  };
}
