import { JOBS, MSG } from '@helix/shared';
import type { SupportRequestCreateInput, SupportRequestCreated } from '@helix/shared/schemas/support';
import { SUPPORT_TARGETS } from '@helix/shared/support';
import type { ServerDeps } from '../deps.ts';
import { checkImageInWorker } from '../models/check-image-in-worker.ts';
import { newImageBytes } from '../profile/uploaded-image.ts';
import type { Actor } from '../sessions/session.service.ts';
import { storageOf } from '../storage/create-storage.ts';
import { presentSupportRequest, supportRequestInclude } from './support-request.presenter.ts';
import { authorizeSupport } from './support.policy.ts';
import { supportTierOf } from './support-tier.ts';

export const supportJobId = (requestId: number) => `support-${requestId}`;

/**
 * POST /support: stores the request first (with its tier and target decided now, from the plan and
 * permissions in force), then queues send-support-request. If the queue cannot be reached the request
 * is still stored and answered: the worker's start-up sweep queues every request not yet mailed.
 */
export async function createSupportRequest(
  deps: ServerDeps,
  actor: Actor,
  input: SupportRequestCreateInput,
  file?: { buffer: Buffer },
): Promise<SupportRequestCreated> {
  authorizeSupport(actor, 'create');
  const tier = supportTierOf(actor);
  const target = SUPPORT_TARGETS[tier];
  const bytes = newImageBytes('screenshot', input.screenshot, file);
  const screenshotKey = bytes
    ? await checkImageInWorker(deps, bytes, 'screenshot', 'screenshot', actor.tenant.id)
    : null;

  let row;
  try {
    row = await deps.db.supportRequest.create({
      data: {
        tenantId: actor.tenant.id,
        userId: actor.user.id,
        subject: input.subject,
        message: input.message,
        screenshotKey,
        priority: tier === 'priority',
        targetHours: target.hours,
        planName: actor.tenant.subscription?.plan?.name ?? null,
      },
      include: supportRequestInclude,
    });
  } catch (error) {
    if (screenshotKey)
      await storageOf(deps)
        .delete(screenshotKey)
        .catch(() => undefined);
    throw error;
  }

  try {
    await deps.queue.enqueue(JOBS.sendSupportRequest, { requestId: row.id }, supportJobId(row.id));
  } catch (err) {
    deps.logger.error({ err, requestId: row.id }, 'support request stored but not queued');
  }
  return { message: MSG.supportRequestSent(target.label), request: presentSupportRequest(row) };
}
