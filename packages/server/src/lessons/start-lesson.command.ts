import { randomBytes } from 'node:crypto';
import { MSG } from '@helix/shared';
import type { LessonForTeacher, StartLesson } from '@helix/shared/lessons';
import type { ServerDeps } from '../deps.ts';
import { withTransaction } from '../db/transaction.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { visibleTo } from '../models/model.policy.ts';
import { newLessonCode } from './lesson-code.ts';
import { lessonExpiresAt, lessonStore } from './lesson-live.ts';
import { leadRefusal } from './lesson.policy.ts';
import { instructorLaunchOf } from './lti-lesson.ts';
import { teacherLessonAnswer } from './teacher-lesson.query.ts';

/** Codes tried before giving up (with ~9e8 codes and a few thousand live lessons, one almost always does). */
const CODE_ATTEMPTS = 10;

/**
 * POST /lessons: starts a live lesson on a model the teacher's school can see, or gives back the
 * teacher's lesson on that model (and course) that is still live (a second click, another tab). With
 * an instructor's LTI launch ticket the lesson is that course's, on the ticket's model (lti-lesson.ts). The join code is
 * reserved in Redis (unique among live lessons) before the record is written; the live state follows.
 */
export async function startLesson(
  deps: ServerDeps,
  actor: Actor,
  input: StartLesson,
): Promise<LessonForTeacher> {
  const refusal = leadRefusal(actor);
  if (refusal) throw AppError.forbidden(refusal);
  const launch = input.ltiTicket ? instructorLaunchOf(deps, actor, input.ltiTicket, input.modelId) : null;
  const modelId = launch?.modelId ?? input.modelId;
  if (modelId === undefined) throw AppError.notFound(MSG.lessonModelGone);
  const model = await deps.db.model.findFirst({
    where: { id: modelId, fileKey: { not: null }, ...visibleTo(actor) },
    select: { id: true, name: true },
  });
  if (!model) throw AppError.notFound(MSG.lessonModelGone);
  const ltiContextId = launch?.courseId ?? null;
  const store = lessonStore(deps);
  const lesson = await withTransaction(deps.db, async (tx) => {
    // One start at a time per teacher and model, so two clicks make one lesson.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('lesson-start'), ${actor.user.id}::int)`;
    const existing = await tx.lesson.findFirst({
      where: {
        tenantId: actor.tenant.id,
        teacherId: actor.user.id,
        modelId: model.id,
        ltiContextId,
        status: 'live',
      },
      orderBy: { startedAt: 'desc' },
    });
    if (existing) return existing;
    const id = randomBytes(16).toString('base64url');
    const startedAt = new Date();
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
      const code = newLessonCode();
      if (!(await store.reserveCode(code, id, lessonExpiresAt(startedAt)))) continue;
      return tx.lesson.create({
        data: {
          id,
          tenantId: actor.tenant.id,
          modelId: model.id,
          teacherId: actor.user.id,
          code,
          startedAt,
          ltiContextId,
        },
      });
    }
    throw AppError.conflict(MSG.serviceUnavailable);
  });
  await store.create(
    {
      id: lesson.id,
      tenantId: lesson.tenantId,
      modelId: model.id,
      modelName: model.name,
      teacherId: actor.user.id,
      code: lesson.code,
      expiresAt: lessonExpiresAt(lesson.startedAt),
    },
    Date.now() + deps.config.LESSON_IDLE_MS,
  );
  return teacherLessonAnswer(deps, actor, lesson.id);
}
