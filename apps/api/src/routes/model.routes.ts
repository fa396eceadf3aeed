import type { ErrorRequestHandler, RequestHandler, Router } from 'express';
import { z } from 'zod';
import { MSG } from '@helix/shared';
import {
  EmbedCreate,
  EmbedCreated,
  EmbedDetail,
  EmbedDetailRequest,
  ModelIdRequest,
  ModelListQuery,
  ModelListResponse,
  ModelUpdate,
  ModelView,
  TenantOption,
  ViewerUrl,
  ViewsSummary,
} from '@helix/shared/schemas/model';
import {
  EmbedLinkExpiry,
  EmbedLinkHosts,
  EmbedLinkList,
  EmbedLinkListQuery,
  EmbedLinkPage,
  EmbedLinkRevoke,
  EmbedLinkView,
} from '@helix/shared/schemas/embed-link';
import { MessageView } from '@helix/shared/schemas/role';
import type { ServerDeps } from '@helix/server/deps';
import { deleteModel } from '@helix/server/models/delete-model.command';
import { embedDetail } from '@helix/server/models/embed-detail.query';
import { embedLinkPage, listEmbedLinks } from '@helix/server/models/embed-links.query';
import { revokeEmbedLink } from '@helix/server/models/revoke-embed-link.command';
import { setEmbedLinkExpiry } from '@helix/server/models/set-embed-link-expiry.command';
import { setEmbedLinkHosts } from '@helix/server/models/set-embed-link-hosts.command';
import { createEmbed } from '@helix/server/models/embed.command';
import { listModels } from '@helix/server/models/list-models.query';
import { authorizeCatalogue } from '@helix/server/models/model.policy';
import { saveModel } from '@helix/server/models/save-model.command';
import { viewerUrl } from '@helix/server/models/viewer-model.query';
import { viewsExportCsv } from '@helix/server/views/views-export.query';
import { viewsSummary } from '@helix/server/views/views-summary';
import { listCustomerTenants, pageCustomerTenants } from '@helix/server/tenants/list-tenants.query';
import { TenantOptionPage, TenantOptionsQuery } from '@helix/shared/schemas/tenant-option';
import { actorOf } from '../http/auth.ts';
import { audited } from '../http/audited.ts';
import { idempotent } from '../http/idempotency.ts';
import { ifMatch } from '../http/if-match.ts';
import { imageUploadLimiter } from '../http/image-upload-limit.ts';
import { rateLimiter, tokenLimiter } from '../http/rate-limit.ts';
import { upload, uploadedFiles } from '../http/upload.ts';
import { inputOf, NoQuery } from '../http/validate.ts';
import { errorHandler } from '../http/error-handler.ts';
import { wantsPage } from '../http/paged.ts';
import { ApiError, component, csv } from '../openapi/describe.ts';
import { API, defineRoute, routerOf, TENANT } from './define-route.ts';

const MB = 1024 * 1024;

/** The coarse gate of the model policy, before the upload is read; saveModel checks add or update. */
const catalogueAdmin: RequestHandler = (req, _res, next) => {
  authorizeCatalogue(actorOf(req), 'change');
  next();
};

const modelUpload = (deps: ServerDeps) =>
  upload({
    files: [
      {
        name: 'file',
        maxBytes: deps.config.MODEL_UPLOAD_MAX_MB * MB,
        tooLarge: MSG.modelFileTooLarge(deps.config.MODEL_UPLOAD_MAX_MB),
        tooLargeStatus: 413,
      },
      { name: 'thumbnail', maxBytes: MB, tooLarge: MSG.fileOver1mb, tooLargeStatus: 400 },
    ],
    maxFieldBytes: 1_500_000,
    maxFields: 12,
  });

/** Models, share and embed, statistics: tenant calls (/api/t/:tenant, after auth and the tenant check). */
const tenantRoutes = [
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/model/all',
    tag: 'Models',
    summary: 'The models the tenant may see',
    description:
      "Each model carries the caller's `abilities`. `stats=true` is an admin's (a platform admin, the school's owner or the Admin role): 403 for anyone else.",
    can: 'Model.listing.view',
    query: ModelListQuery,
    ok: ModelListResponse,
    handler: (deps) => async (req, res) => {
      res.json(await listModels(deps, actorOf(req), inputOf(req, ModelListQuery)));
    },
  }),
  // The period's usage (home and subscription pages) and its export (statistics page).
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/views/summary',
    tag: 'Models',
    summary: "The billing period's view usage",
    can: 'Model.listing.view',
    query: NoQuery,
    ok: ViewsSummary,
    handler: (deps) => async (req, res) => {
      res.json(await viewsSummary(deps, actorOf(req)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/views/export',
    tag: 'Models',
    summary: "The period's views as CSV",
    can: 'Model.listing.view',
    who: "statistics readers: a platform admin, the school's owner or the Admin role",
    query: NoQuery,
    ok: csv('Views per model.'),
    handler: (deps) => async (req, res) => {
      const { filename, csv } = await viewsExportCsv(deps, actorOf(req));
      res.type('text/csv; charset=utf-8').attachment(filename).set('Cache-Control', 'no-store').send(csv);
    },
  }),
  // An outbox call (Idempotency-Key, If-Match: the model's version).
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/model/update',
    tag: 'Models',
    summary: 'Add (id 0) or update a model, with its .glb and thumbnail',
    permission: ['Model.add', 'Model.update'],
    who: 'platform admins (Model.add to add, Model.update to update)',
    body: ModelUpdate,
    bodyType: 'multipart',
    uploads: true,
    outbox: {},
    errors: [409],
    ok: [ModelView, { status: 201, schema: ModelView, description: 'Added.' }],
    before: (deps) => [
      audited(deps, 'model.update', 'model', 'id'),
      catalogueAdmin,
      modelUpload(deps),
      idempotent(deps),
      imageUploadLimiter(deps, ['thumbnail']),
    ],
    handler: (deps) => async (req, res) => {
      const files = uploadedFiles(req);
      const { model, created } = await saveModel(
        deps,
        actorOf(req),
        inputOf(req, ModelUpdate),
        { file: files.file, thumbnail: files.thumbnail },
        ifMatch(req),
      );
      res.status(created ? 201 : 200).json(model);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/model/delete',
    tag: 'Models',
    summary: 'Delete a model',
    can: 'Model.delete',
    who: 'platform admins',
    body: ModelIdRequest,
    ok: MessageView,
    before: (deps) => [audited(deps, 'model.delete', 'model', 'id')],
    handler: (deps) => async (req, res) => {
      res.json(await deleteModel(deps, actorOf(req), inputOf(req, ModelIdRequest).id));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/model/embed',
    tag: 'Models',
    summary: 'Make a share or embed link',
    can: 'Model.embed',
    body: EmbedCreate,
    errors: [409, 422],
    ok: EmbedCreated,
    before: (deps) => [audited(deps, 'link.create', 'model', 'id')],
    handler: (deps) => async (req, res) => {
      res.json(await createEmbed(deps, actorOf(req), inputOf(req, EmbedCreate)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/model/links',
    tag: 'Models',
    summary: 'Share and embed links (one page with page/pageSize, else all)',
    can: 'Model.embed',
    query: EmbedLinkListQuery,
    ok: { schema: z.union([EmbedLinkPage, EmbedLinkList]) },
    handler: (deps) => async (req, res) => {
      const query = inputOf(req, EmbedLinkListQuery);
      res.set('Cache-Control', 'no-store');
      res.json(
        wantsPage(req)
          ? await embedLinkPage(deps, actorOf(req), query)
          : await listEmbedLinks(deps, actorOf(req), query),
      );
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/model/links/revoke',
    tag: 'Models',
    summary: 'Revoke a link',
    can: 'Model.embed',
    body: EmbedLinkRevoke,
    ok: EmbedLinkView,
    before: (deps) => [audited(deps, 'link.revoke', 'link', 'id')],
    handler: (deps) => async (req, res) => {
      res.json(await revokeEmbedLink(deps, actorOf(req), inputOf(req, EmbedLinkRevoke).id));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/model/links/expiry',
    tag: 'Models',
    summary: "Set or clear a link's expiry",
    can: 'Model.embed',
    body: EmbedLinkExpiry,
    errors: [409, 422],
    ok: EmbedLinkView,
    before: (deps) => [audited(deps, 'link.expiry', 'link', 'id')],
    handler: (deps) => async (req, res) => {
      res.json(await setEmbedLinkExpiry(deps, actorOf(req), inputOf(req, EmbedLinkExpiry)));
    },
  }),
  // The sites whose pages may show the link (docs/links.md, "Where a link may be shown").
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/model/links/hosts',
    tag: 'Models',
    summary: 'Set the sites whose pages may show a link (empty: any site)',
    description:
      'Patterns `school.org` or `*.school.org`, at most 20; a revoked link answers 409. docs/links.md, "Only on our sites".',
    can: 'Model.embed',
    who: "the link's creator, or the school's owner",
    body: EmbedLinkHosts,
    errors: [409],
    ok: EmbedLinkView,
    before: (deps) => [audited(deps, 'link.hosts', 'link', 'id')],
    handler: (deps) => async (req, res) => {
      res.json(await setEmbedLinkHosts(deps, actorOf(req), inputOf(req, EmbedLinkHosts)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/model/viewer-url',
    tag: 'Models',
    summary: "The viewer frame's address for a model",
    can: 'Model.view',
    body: ModelIdRequest,
    errors: [409],
    ok: ViewerUrl,
    handler: (deps) => async (req, res) => {
      res.json(await viewerUrl(deps, actorOf(req), inputOf(req, ModelIdRequest).id));
    },
  }),
  // With page or pageSize: one page (the model form's tenant picker); without: every matching tenant.
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/tenant/getAllTenants',
    tag: 'Models',
    summary: 'Customer tenants for pickers (one page with page/pageSize, else all)',
    who: 'platform admins',
    query: TenantOptionsQuery,
    ok: { schema: z.union([TenantOptionPage, z.array(TenantOption)]) },
    handler: (deps) => async (req, res) => {
      const query = inputOf(req, TenantOptionsQuery);
      res.json(
        wantsPage(req)
          ? await pageCustomerTenants(deps.db, actorOf(req), query)
          : await listCustomerTenants(deps.db, actorOf(req), query),
      );
    },
  }),
];

export const modelTenantRoutes = (deps: ServerDeps): Router => routerOf(deps, TENANT, tenantRoutes);

/** The embed page's failures carry `success: false` beside the standard error shape. */
const embedErrors: ErrorRequestHandler = (err, req, res, next) => {
  const json = res.json.bind(res);
  res.json = (body: unknown) => json({ success: false, ...(body as object) });
  errorHandler(err, req, res, next);
};

/** The public share and embed pages' call (base, no login), rate-limited per client address. */
const embedDetailRoute = defineRoute({
  method: 'post',
  path: '/api/model/embed/detail',
  tag: 'Models',
  summary: "The share and embed pages' model and a viewer token (the viewer's lookup counts the view)",
  description:
    'Failures carry `success: false` beside the error shape. A link limited to some sites answers 403 EMBED_HOST_NOT_ALLOWED on a page of any other site.',
  body: EmbedDetailRequest,
  errorShape: component('EmbedDetailError', ApiError.extend({ success: z.literal(false) })),
  limited: true,
  errors: [403, 404, 409],
  ok: EmbedDetail,
  before: (deps) => [
    rateLimiter({
      redis: deps.redis,
      prefix: deps.config.REDIS_PREFIX,
      logger: deps.logger,
      name: 'embed-detail',
      limit: deps.config.EMBED_RATE_LIMIT_MAX,
      windowSeconds: deps.config.EMBED_RATE_LIMIT_WINDOW_SECONDS,
    }),
    tokenLimiter(deps, 'embed-detail-token', (req) => (req.body as { token?: unknown })?.token),
  ],
  handler: (deps) => async (req, res) => {
    // The answer carries this load's viewer token: never stored by a cache.
    res.set('Cache-Control', 'no-store');
    res.json(
      await embedDetail(deps, inputOf(req, EmbedDetailRequest), {
        ip: req.ip ?? '',
        fetchSite: req.get('sec-fetch-site'),
      }),
    );
  },
  onError: embedErrors,
});

export const embedRoutes = (deps: ServerDeps): Router => routerOf(deps, API, [embedDetailRoute]);
