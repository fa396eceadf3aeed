import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { MSG } from '@helix/shared';
import {
  EmbedCreate,
  EmbedDetailRequest,
  ModelIdRequest,
  ModelListQuery,
  ModelUpdate,
} from '@helix/shared/schemas/model';
import {
  EmbedLinkExpiry,
  EmbedLinkHosts,
  EmbedLinkListQuery,
  EmbedLinkRevoke,
} from '@helix/shared/schemas/embed-link';
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
import { TenantOptionsQuery } from '@helix/shared/schemas/tenant-option';
import { actorOf, can } from '../http/auth.ts';
import { audited } from '../http/audited.ts';
import { idempotent } from '../http/idempotency.ts';
import { ifMatch } from '../http/if-match.ts';
import { imageUploadLimiter } from '../http/image-upload-limit.ts';
import { rateLimiter, tokenLimiter } from '../http/rate-limit.ts';
import { upload, uploadedFiles } from '../http/upload.ts';
import { inputOf, NoQuery, validate } from '../http/validate.ts';
import { errorHandler } from '../http/error-handler.ts';
import { wantsPage } from '../http/paged.ts';

const MB = 1024 * 1024;

/** The coarse gate of the model policy, before the upload is read; saveModel checks add or update. */
const catalogueAdmin: RequestHandler = (req, _res, next) => {
  authorizeCatalogue(actorOf(req), 'change');
  next();
};

/** Models, share and embed, statistics: tenant calls (/api/t/:tenant, after auth and the tenant check). */
export function modelTenantRoutes(deps: ServerDeps): Router {
  const router = Router({ mergeParams: true });
  const modelUpload = upload({
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

  router.get('/model/all', can('Model.listing.view'), validate(ModelListQuery, 'query'), async (req, res) => {
    res.json(await listModels(deps, actorOf(req), inputOf(req, ModelListQuery)));
  });

  // The period's usage (home and subscription pages) and its export (statistics page).
  router.get('/views/summary', can('Model.listing.view'), validate(NoQuery, 'query'), async (req, res) => {
    res.json(await viewsSummary(deps, actorOf(req)));
  });
  router.get('/views/export', can('Model.listing.view'), validate(NoQuery, 'query'), async (req, res) => {
    const { filename, csv } = await viewsExportCsv(deps, actorOf(req));
    res.type('text/csv; charset=utf-8').attachment(filename).set('Cache-Control', 'no-store').send(csv);
  });

  // An outbox call (Idempotency-Key, If-Match: the model's version).
  const once = idempotent(deps);
  const thumbnailLimit = imageUploadLimiter(deps, ['thumbnail']);
  router.post('/model/update', audited(deps, 'model.update', 'model', 'id'));
  router.post(
    '/model/update',
    catalogueAdmin,
    modelUpload,
    once,
    thumbnailLimit,
    validate(ModelUpdate),
    async (req, res) => {
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
  );

  router.post('/model/delete', audited(deps, 'model.delete', 'model', 'id'));
  router.post('/model/delete', can('Model.delete'), validate(ModelIdRequest), async (req, res) => {
    res.json(await deleteModel(deps, actorOf(req), inputOf(req, ModelIdRequest).id));
  });

  router.post('/model/embed', audited(deps, 'link.create', 'model', 'id'));
  router.post('/model/embed', can('Model.embed'), validate(EmbedCreate), async (req, res) => {
    res.json(await createEmbed(deps, actorOf(req), inputOf(req, EmbedCreate)));
  });

  router.get('/model/links', can('Model.embed'), validate(EmbedLinkListQuery, 'query'), async (req, res) => {
    const query = inputOf(req, EmbedLinkListQuery);
    res.set('Cache-Control', 'no-store');
    res.json(
      wantsPage(req)
        ? await embedLinkPage(deps, actorOf(req), query)
        : await listEmbedLinks(deps, actorOf(req), query),
    );
  });

  router.post('/model/links/revoke', audited(deps, 'link.revoke', 'link', 'id'));
  router.post('/model/links/revoke', can('Model.embed'), validate(EmbedLinkRevoke), async (req, res) => {
    res.json(await revokeEmbedLink(deps, actorOf(req), inputOf(req, EmbedLinkRevoke).id));
  });

  router.post('/model/links/expiry', audited(deps, 'link.expiry', 'link', 'id'));
  router.post('/model/links/expiry', can('Model.embed'), validate(EmbedLinkExpiry), async (req, res) => {
    res.json(await setEmbedLinkExpiry(deps, actorOf(req), inputOf(req, EmbedLinkExpiry)));
  });

  // The sites whose pages may show the link (docs/links.md, "Where a link may be shown").
  router.post('/model/links/hosts', audited(deps, 'link.hosts', 'link', 'id'));
  router.post('/model/links/hosts', can('Model.embed'), validate(EmbedLinkHosts), async (req, res) => {
    res.json(await setEmbedLinkHosts(deps, actorOf(req), inputOf(req, EmbedLinkHosts)));
  });

  router.post('/model/viewer-url', can('Model.view'), validate(ModelIdRequest), async (req, res) => {
    res.json(await viewerUrl(deps, actorOf(req), inputOf(req, ModelIdRequest).id));
  });

  // With page or pageSize: one page (the model form's tenant picker); without: every matching tenant.
  router.get('/tenant/getAllTenants', validate(TenantOptionsQuery, 'query'), async (req, res) => {
    const query = inputOf(req, TenantOptionsQuery);
    res.json(
      wantsPage(req)
        ? await pageCustomerTenants(deps.db, actorOf(req), query)
        : await listCustomerTenants(deps.db, actorOf(req), query),
    );
  });

  return router;
}

/** The embed page's failures carry `success: false` beside the standard error shape. */
const embedErrors: ErrorRequestHandler = (err, req, res, next) => {
  const json = res.json.bind(res);
  res.json = (body: unknown) => json({ success: false, ...(body as object) });
  errorHandler(err, req, res, next);
};

/** The public share and embed pages' call (base, no login), rate-limited per client address. */
export function embedRoutes(deps: ServerDeps): Router {
  const router = Router();
  const limit = rateLimiter({
    redis: deps.redis,
    prefix: deps.config.REDIS_PREFIX,
    logger: deps.logger,
    name: 'embed-detail',
    limit: deps.config.EMBED_RATE_LIMIT_MAX,
    windowSeconds: deps.config.EMBED_RATE_LIMIT_WINDOW_SECONDS,
  });
  const perToken = tokenLimiter(
    deps,
    'embed-detail-token',
    (req) => (req.body as { token?: unknown })?.token,
  );
  router.post('/model/embed/detail', limit, perToken, validate(EmbedDetailRequest), async (req, res) => {
    // The answer carries this load's viewer token: never stored by a cache.
    res.set('Cache-Control', 'no-store');
    res.json(
      await embedDetail(deps, inputOf(req, EmbedDetailRequest), {
        ip: req.ip ?? '',
        fetchSite: req.get('sec-fetch-site'),
      }),
    );
  });
  router.use('/model/embed/detail', embedErrors);
  return router;
}
