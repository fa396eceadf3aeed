import { MSG } from '@helix/shared';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { visibleToTenant } from '../models/model.policy.ts';
import type { ViewLoad } from '../views/record-view.ts';
import { checkSeat } from './lesson-live.ts';
import { LESSON_TOKEN_TTL_SECONDS, verifyLessonSeat } from './lesson-token.ts';

const tenantInclude = { subscription: { include: { plan: true } }, branding: true } as const;

/**
 * The viewer frame's load in mode 'lesson' (GET /api/viewer/model with a seat token as
 * `subscription`): the seat must be valid, its lesson live and the pupil not removed; the model still
 * visible to the school. The view is counted once per seat per lesson (the viewer is the seat, its
 * "seen" flag outlasts the lesson: a reconnect or a reload never counts again), credited to the
 * teacher (or to the course when the lesson came from an LTI launch). The caller applies the school's
 * plan and view limits as for every load.
 */
export async function resolveLessonLoad(deps: ServerDeps, subscription: string, urlModelName: string) {
  const seat = verifyLessonSeat(deps.config.SIGNING_SECRET, subscription);
  if (!seat) throw AppError.forbidden(MSG.viewerLinkInvalid);
  const standing = await checkSeat(deps, seat);
  if ('reason' in standing) {
    throw AppError.forbidden(standing.reason === 'removed' ? MSG.lessonRemoved : MSG.lessonOver);
  }
  const [tenant, lesson] = await Promise.all([
    deps.db.tenant.findUnique({ where: { id: seat.tenantId }, include: tenantInclude }),
    deps.db.lesson.findFirst({
      where: { id: seat.lessonId },
      select: { teacherId: true, ltiContextId: true },
    }),
  ]);
  if (!tenant || !lesson) throw AppError.forbidden(MSG.lessonOver);
  const model = await deps.db.model.findFirst({
    where: { id: seat.modelId, urlModelName, ...visibleToTenant(tenant.id, tenant.isPlatform) },
  });
  if (!model) throw AppError.notFound(MSG.lessonModelGone);
  const load: ViewLoad = {
    modelId: model.id,
    viewerKey: lesson.ltiContextId !== null ? `l:${lesson.ltiContextId}` : `u:${lesson.teacherId}`,
    source: lesson.ltiContextId !== null ? 'lti' : 'portal',
    viewer: `lesson:${seat.lessonId}:${seat.seatId}`,
  };
  return { tenant, model, load, windowSeconds: LESSON_TOKEN_TTL_SECONDS };
}
