import type { LessonForTeacher } from '@helix/shared/lessons';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { lessonStore } from './lesson-live.ts';
import { lessonViewerUrl, presentLessonForTeacher, presentLessonSummary } from './lesson.presenter.ts';
import { signLessonSeat } from './lesson-token.ts';

/** The teacher's own lesson of this school, or null (another teacher's or school's is the same null). */
export const teacherLesson = (deps: ServerDeps, actor: Actor, id: string) =>
  deps.db.lesson.findFirst({
    where: { id, tenantId: actor.tenant.id, teacherId: actor.user.id },
    include: { model: { select: { name: true, urlModelName: true, version: true } } },
  });

/**
 * GET /lessons/:id (and the answer of start): the lesson and the teacher's seat token and viewer
 * frame, minted afresh (a reload of the teacher's page gets working ones).
 */
export async function teacherLessonAnswer(
  deps: ServerDeps,
  actor: Actor,
  id: string,
): Promise<LessonForTeacher> {
  const lesson = await teacherLesson(deps, actor, id);
  if (!lesson) throw AppError.notFound();
  const idleEndsAt = lesson.status === 'live' ? await lessonStore(deps).idleEndsAt(lesson.id) : null;
  const token = signLessonSeat(deps.config.SIGNING_SECRET, {
    lessonId: lesson.id,
    tenantId: lesson.tenantId,
    modelId: lesson.modelId,
    role: 'teacher',
    seatId: 'teacher',
    name: actor.user.name,
    userId: actor.user.id,
  });
  return presentLessonForTeacher(
    presentLessonSummary(deps.config, lesson, idleEndsAt),
    token,
    lessonViewerUrl(deps.config, lesson.model, token),
  );
}
