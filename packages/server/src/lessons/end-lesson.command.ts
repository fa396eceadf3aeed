import type { LessonSummary } from '@helix/shared/lessons';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { lessonStore } from './lesson-live.ts';
import { presentLessonSummary } from './lesson.presenter.ts';
import { teacherLesson } from './teacher-lesson.query.ts';

/**
 * Ends a live lesson for `reason` (its teacher, or nobody leading it): the record says so and its live
 * state goes (roster, names, view, code). True when this call ended it (the caller then tells the
 * class, apps/api lessons/lesson-realtime.ts); false when it was over already.
 */
export async function endLesson(
  deps: Pick<ServerDeps, 'db' | 'redis' | 'config'>,
  id: string,
  reason: 'ended' | 'idle',
): Promise<boolean> {
  const ended = await deps.db.lesson.updateMany({
    where: { id, status: 'live' },
    data: { status: 'ended', endedReason: reason, endedAt: new Date() },
  });
  const row = await deps.db.lesson.findFirst({ where: { id }, select: { code: true } });
  if (row) await lessonStore(deps).clear(id, row.code);
  return ended.count === 1;
}

/**
 * POST /lessons/:id/end: the teacher's own lesson (else 404); ending an ended one changes nothing.
 * `ended`: this call ended it (the class is to be told).
 */
export async function endTeacherLesson(
  deps: ServerDeps,
  actor: Actor,
  id: string,
): Promise<{ ended: boolean; lesson: LessonSummary }> {
  const found = await teacherLesson(deps, actor, id);
  if (!found) throw AppError.notFound();
  const ended = await endLesson(deps, id, 'ended');
  const lesson = (await teacherLesson(deps, actor, id)) ?? found;
  return { ended, lesson: presentLessonSummary(deps.config, lesson, null) };
}
