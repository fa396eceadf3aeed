import { MSG, RECORDING_MAX_SECONDS } from '@helix/shared';
import type { ViewerRecordGrant, ViewerRecordQuery } from '@helix/shared/schemas/model';
import type { z } from 'zod';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { userHasFeature } from '../plans/plan-features.policy.ts';
import { sessionUserInclude } from '../sessions/session-user.include.ts';
import { visibleToTenant } from './model.policy.ts';
import { verifyViewerTicket } from './signing.ts';

/**
 * How long after its 10-minute life a viewer ticket may still start a recording: a teacher keeps the
 * modal open through a lesson. The ticket only says who opened which model; the permission and the plan
 * are read again at every start.
 */
export const RECORD_TICKET_GRACE_SECONDS = 12 * 60 * 60;

/**
 * GET /api/viewer/record: the viewer asks when the user presses Record. Allowed (200) only for a portal
 * viewer ticket whose user, now, holds Screen.record with a plan in force that has screenRecord, for a
 * model their tenant still sees. Anything else is 403: a share/embed token, a forged or long-expired
 * ticket, a user without the role or whose plan was downgraded since the load. No view is counted.
 */
export async function authorizeRecording(
  deps: ServerDeps,
  query: z.output<typeof ViewerRecordQuery>,
  now = new Date(),
): Promise<ViewerRecordGrant> {
  const ticket = verifyViewerTicket(
    deps.config.SIGNING_SECRET,
    query.subscription,
    RECORD_TICKET_GRACE_SECONDS,
  );
  if (!ticket) throw AppError.forbidden(MSG.recordNotAllowed);
  const user = await deps.db.user.findFirst({
    where: { id: ticket.userId, tenantId: ticket.tenantId, deletedAt: null },
    include: sessionUserInclude,
  });
  if (!user || !userHasFeature(user, 'screenRecord', now)) throw AppError.forbidden(MSG.recordNotAllowed);
  const model = await deps.db.model.findFirst({
    where: {
      id: ticket.modelId,
      urlModelName: query.model,
      ...visibleToTenant(user.tenant.id, user.tenant.isPlatform || user.isAdmin),
    },
    select: { id: true },
  });
  if (!model) throw AppError.notFound();
  return { record: true, maxSeconds: RECORDING_MAX_SECONDS };
}
