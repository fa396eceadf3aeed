import { MSG } from '@helix/shared';
import type { OfflineCopy, OfflineCopyRequest } from '@helix/shared/schemas/pinned-model';
import type { z } from 'zod';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { STANDARD_VIEWER_FLAGS } from '../models/viewer-model.query.ts';
import { visibleTo } from '../models/model.policy.ts';
import { apiOrigin, signedModelFileUrl } from '../models/viewer-urls.ts';
import { presentBrandingLook } from '../presenters/branding.presenter.ts';
import type { Actor } from '../sessions/session.service.ts';
import { randomToken } from '../tokens.ts';
import { hasActivePlan } from '../views/allowance.ts';

/**
 * POST /model/offline-copy: what a device keeps to open a model without network (a pinned model):
 * a short-lived signed URL of the .glb, the viewer host's origin, the portal viewer's fixed feature set
 * and the tenant's viewer branding, and the copy's id. It counts no view: keeping a copy is not looking
 * at it; every opening of the copy is queued on the device and counted when it is back online
 * (offline-view), only against a copy issued here: the grant row binds the id to the caller, the
 * device and the model. Pinning again on the same device (a new version) renews the grant and answers
 * the same id, so views queued with it stay valid.
 * The same checks as opening the model online: visible to the caller's tenant, a file, a plan in force.
 */
export async function issueOfflineCopy(
  deps: ServerDeps,
  actor: Actor,
  input: z.output<typeof OfflineCopyRequest>,
): Promise<OfflineCopy> {
  const { id, deviceId } = input;
  const model = await deps.db.model.findFirst({ where: { id, ...visibleTo(actor) } });
  if (!model?.fileKey) throw AppError.notFound();
  const tenant = await deps.db.tenant.findUnique({
    where: { id: actor.tenant.id },
    include: { subscription: { include: { plan: true } }, branding: true },
  });
  if (!tenant) throw AppError.notFound();
  if (!hasActivePlan(tenant)) throw AppError.forbidden(MSG.planNotActive);
  const now = new Date();
  const grant = await deps.db.offlineCopyGrant.upsert({
    where: { userId_deviceId_modelId: { userId: actor.user.id, deviceId, modelId: model.id } },
    create: {
      id: randomToken(),
      tenantId: actor.tenant.id,
      userId: actor.user.id,
      deviceId,
      modelId: model.id,
      issuedAt: now,
      renewedAt: now,
    },
    update: { renewedAt: now },
    select: { id: true },
  });
  const look = presentBrandingLook(tenant.branding, apiOrigin(deps.config));
  return {
    id: model.id,
    copyId: grant.id,
    name: model.name,
    urlModelName: model.urlModelName,
    version: model.version,
    fileUrl: signedModelFileUrl(deps.config, model),
    viewerOrigin: new URL(deps.config.VIEWER_URL).origin,
    settings: STANDARD_VIEWER_FLAGS,
    branding: {
      backgroundColor: model.backgroundColor ?? look.backgroundColor,
      primaryColor: look.primaryColor,
      modelBgLogo: look.modelBgLogo,
      modelLoadingLogo: look.modelLoadingLogo,
    },
  };
}
