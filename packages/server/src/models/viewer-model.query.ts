import { EMBED_FLAGS, MSG, type EmbedFlag } from '@helix/shared';
import type { ViewerModel, ViewerModelQuery } from '@helix/shared/schemas/model';
import type { z } from 'zod';
import type { ServerDeps } from '../deps.ts';
import type { Model } from '../db.ts';
import { AppError } from '../errors.ts';
import { presentBrandingLook, type BrandingSource } from '../presenters/branding.presenter.ts';
import type { Actor } from '../sessions/session.service.ts';
import { hasActivePlan, type TenantPlanContext } from '../views/allowance.ts';
import { recordView, type ViewLoad } from '../views/record-view.ts';
import { embedAccess } from './embed-access.ts';
import { embedBackground } from './embed-background.ts';
import { ancestorsAllowed, hostNotAllowed } from './embed-host.policy.ts';
import { clientNetwork } from '../views/client-network.ts';
import { overLoadLimit, type LoadLimit } from '../views/load-limit.ts';
import { verifyViewerToken } from '../views/viewer-token.ts';
import { FEATURE_PERMISSION, tenantHasFeature, type FeatureTenant } from '../plans/plan-features.policy.ts';
import { embedViewerLoad, embedViewerToken, loadViewerToken } from '../views/embed-viewer.ts';
import { isLtiViewerTicket } from '../lti/lti-viewer-ticket.ts';
import { resolveLtiLoad } from '../lti/lti-viewer.ts';
import { resolveLessonLoad } from '../lessons/lesson-viewer.ts';
import { viewDepsOf } from '../views/views-summary.ts';
import { visibleTo, visibleToTenant } from './model.policy.ts';
import { signViewerTicket, verifyViewerTicket } from './signing.ts';
import { apiOrigin, signedModelFileUrl, viewerPageUrl } from './viewer-urls.ts';

/** The portal's viewer modal: a fixed feature set, with center_model off (administration-content 9). */
export const STANDARD_VIEWER_FLAGS: EmbedFlag[] = EMBED_FLAGS.filter((f) => f !== 'center_model');

/** POST /model/viewer-url: the viewer host URL for the portal's modal, with a 10-minute ticket. */
export async function viewerUrl(deps: ServerDeps, actor: Actor, id: number): Promise<{ url: string }> {
  const model = await deps.db.model.findFirst({ where: { id, ...visibleTo(actor) } });
  if (!model) throw AppError.notFound();
  const ticket = signViewerTicket(deps.config.SIGNING_SECRET, {
    tenantId: actor.tenant.id,
    userId: actor.user.id,
    modelId: model.id,
  });
  return { url: viewerPageUrl(deps.config, model, ticket, 'standard') };
}

const tenantInclude = { subscription: { include: { plan: true } }, branding: true } as const;

interface Resolved {
  model: Pick<Model, 'id' | 'name' | 'version' | 'fileKey' | 'backgroundColor'>;
  tenant: TenantPlanContext & {
    branding: (BrandingSource & { additionalViewsValidation: boolean }) | null;
  };
  settings: EmbedFlag[];
  load: ViewLoad;
  transparentBackground: boolean;
  transparentFallback: boolean;
  record: boolean;
  /** Share and embed loads: the valid viewer token the load is counted under (the viewer keeps it). */
  viewerToken?: string;
  /** The load's view window when not VIEW_WINDOW_SECONDS (a lesson: once per seat per lesson). */
  windowSeconds?: number;
}

/**
 * Whether the ticket's user may record now (plan-features.policy.ts, read at this load): the tenant's
 * plan, already loaded, must have screenRecord in force; only then one light query asks whether one of
 * the user's roles holds Screen.record (with the plan's flag on, that is the effective permission). A
 * user gone since is not refused the view (the ticket was valid), only the recording.
 */
async function ticketUserMayRecord(
  deps: ServerDeps,
  tenant: FeatureTenant,
  ticket: { userId: number; tenantId: number },
): Promise<boolean> {
  if (!tenantHasFeature(tenant, 'screenRecord')) return false;
  const role = await deps.db.userRole.findFirst({
    where: {
      userId: ticket.userId,
      user: { tenantId: ticket.tenantId, deletedAt: null },
      role: { permissions: { some: { permission: { name: FEATURE_PERMISSION.screenRecord } } } },
    },
    select: { userId: true },
  });
  return role !== null;
}

async function resolveStandard(
  deps: ServerDeps,
  query: z.output<typeof ViewerModelQuery>,
): Promise<Resolved> {
  const ticket = verifyViewerTicket(deps.config.SIGNING_SECRET, query.subscription);
  if (!ticket) throw AppError.forbidden(MSG.viewerLinkInvalid);
  const tenant = await deps.db.tenant.findUnique({ where: { id: ticket.tenantId }, include: tenantInclude });
  if (!tenant) throw AppError.forbidden(MSG.viewerLinkInvalid);
  const model = await deps.db.model.findFirst({
    where: {
      id: ticket.modelId,
      urlModelName: query.model,
      ...visibleToTenant(tenant.id, tenant.isPlatform),
    },
  });
  if (!model) throw AppError.notFound();
  return {
    model,
    tenant,
    settings: STANDARD_VIEWER_FLAGS,
    transparentBackground: false,
    transparentFallback: false,
    record: await ticketUserMayRecord(deps, tenant, ticket),
    load: {
      modelId: model.id,
      viewerKey: `u:${ticket.userId}`,
      source: 'portal',
      viewer: `u:${ticket.userId}`,
    },
  };
}

async function resolveEmbedding(
  deps: ServerDeps,
  query: z.output<typeof ViewerModelQuery>,
  client: ViewerClient,
): Promise<Resolved> {
  const access = await embedAccess(deps, query.subscription);
  if (!access.ok) {
    if (access.reason === 'model') throw AppError.notFound();
    throw AppError.forbidden(access.reason === 'plan' ? MSG.planNotActive : MSG.embedLinkInvalid);
  }
  const { embed } = access;
  if (embed.model.urlModelName !== query.model) throw AppError.notFound();
  const scope = { linkId: embed.id, network: clientNetwork(client.ip) };
  let token = loadViewerToken(deps.config, embed.id, client.ip, query);
  let valid = token ? verifyViewerToken(deps.config.SIGNING_SECRET, token, scope) !== null : false;
  if (embed.allowedHosts.length > 0) {
    // A link limited to some sites counts only a load shown inside them: where the browser reports the
    // frame's ancestor origins, they decide; elsewhere (Firefox) only a load whose page the server let
    // through by its referrer (its render minted the token) counts. A viewer address framed elsewhere
    // directly, or a page opened on its own, is refused before anything is counted.
    const ancestors = query.ancestors?.split(/\s+/).filter(Boolean);
    const allowed = ancestors !== undefined ? ancestorsAllowed(deps.config, embed, ancestors) : valid;
    if (!allowed) throw hostNotAllowed();
    // Let in by its ancestors without a token (the page could not place itself): a new viewer.
    if (!valid) {
      token = embedViewerToken(deps.config, embed.id, client.ip);
      valid = true;
    }
  }
  const backdrop = embedBackground(embed);
  return {
    model: embed.model,
    tenant: embed.tenant,
    settings: backdrop.settings,
    transparentBackground: backdrop.transparentBackground,
    transparentFallback: backdrop.transparentFallback,
    // Share and embed pages never offer recording.
    record: false,
    // The server-minted viewer token; without a valid one, one viewer per address.
    load: embedViewerLoad(
      deps.config,
      { id: embed.id, modelId: embed.model.id, tenantId: embed.tenant.id },
      token,
      client.ip,
    ),
    ...(valid && token ? { viewerToken: token } : {}),
  };
}

/**
 * A pupil's load after an LTI launch (docs/lti.md): the launch's viewer ticket instead of an embed
 * token, the portal modal's features, counted for the course the launch came from.
 */
async function resolveLti(deps: ServerDeps, query: z.output<typeof ViewerModelQuery>): Promise<Resolved> {
  const resolved = await resolveLtiLoad(deps, query.subscription, query.model);
  if (!resolved) throw AppError.forbidden(MSG.ltiStateInvalid);
  if (!resolved.model) throw AppError.notFound();
  return {
    model: resolved.model,
    tenant: resolved.tenant,
    settings: STANDARD_VIEWER_FLAGS,
    transparentBackground: false,
    transparentFallback: false,
    record: false,
    load: resolved.load,
  };
}

/**
 * A seat's load in a live lesson (mode 'lesson', lessons/lesson-viewer.ts): the portal modal's
 * features, counted once per pupil per lesson.
 */
async function resolveLesson(deps: ServerDeps, query: z.output<typeof ViewerModelQuery>): Promise<Resolved> {
  const { model, tenant, load, windowSeconds } = await resolveLessonLoad(
    deps,
    query.subscription,
    query.model,
  );
  return {
    model,
    tenant,
    settings: STANDARD_VIEWER_FLAGS,
    transparentBackground: false,
    transparentFallback: false,
    record: false,
    load,
    windowSeconds,
  };
}

/** Who sent the load (the request's client address, as Express's trust proxy setting reads it). */
export interface ViewerClient {
  ip: string;
  /** The load's public rate limit (load-limit.ts), checked with its view in one Redis round trip. */
  limit?: LoadLimit;
}

/** The resolved load whose view may be counted, or the refusal (after counting it against the limit). */
async function resolveLoad(
  deps: ServerDeps,
  query: z.output<typeof ViewerModelQuery>,
  client: ViewerClient,
): Promise<Resolved> {
  try {
    const resolved =
      query.currentmode === 'standard'
        ? await resolveStandard(deps, query)
        : query.currentmode === 'lesson'
          ? await resolveLesson(deps, query)
          : isLtiViewerTicket(query.subscription)
            ? await resolveLti(deps, query)
            : await resolveEmbedding(deps, query, client);
    if (!resolved.model.fileKey) throw AppError.notFound();
    if (!hasActivePlan(resolved.tenant)) throw AppError.forbidden(MSG.planNotActive);
    return resolved;
  } catch (error) {
    // Refused before its view: it still counts against the rate limit, which answers first.
    if (client.limit && (await overLoadLimit(deps, client.limit))) throw AppError.tooManyRequests();
    throw error;
  }
}

/**
 * GET /api/viewer/model: the viewer host calls it on every load. Checks the credential (a viewer ticket
 * in standard mode, an embed token in embedding mode), the model's visibility and the tenant's plan,
 * counts ONE view unless this viewer's load of the model was counted within the view window (429 over
 * the limit) and answers what the viewer shows. The public rate limit (`client.limit`) is checked in
 * the counting script: one Redis round trip per load.
 */
export async function loadViewerModel(
  deps: ServerDeps,
  query: z.output<typeof ViewerModelQuery>,
  client: ViewerClient,
): Promise<ViewerModel> {
  const resolved = await resolveLoad(deps, query, client);
  const { model, tenant } = resolved;
  await recordView(
    resolved.windowSeconds
      ? { ...viewDepsOf(deps), viewWindowSeconds: resolved.windowSeconds }
      : viewDepsOf(deps),
    tenant,
    client.limit ? { ...resolved.load, limit: client.limit } : resolved.load,
  );
  const look = presentBrandingLook(tenant.branding, apiOrigin(deps.config));
  return {
    name: model.name,
    glbUrl: signedModelFileUrl(deps.config, model),
    settings: resolved.settings,
    branding: {
      backgroundColor: model.backgroundColor ?? look.backgroundColor,
      primaryColor: look.primaryColor,
      modelBgLogo: look.modelBgLogo,
      modelLoadingLogo: look.modelLoadingLogo,
    },
    transparentBackground: resolved.transparentBackground,
    transparentFallback: resolved.transparentFallback,
    record: resolved.record,
    ...(resolved.viewerToken ? { viewer: resolved.viewerToken } : {}),
  };
}
