import { randomBytes } from 'node:crypto';
import { MSG } from '@helix/shared';
import { LESSON_LIMITS, type JoinLesson, type LessonForPupil } from '@helix/shared/lessons';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { sign } from '../models/signing.ts';
import type { Actor } from '../sessions/session.service.ts';
import { liveLesson, lessonStore } from './lesson-live.ts';
import type { LessonLive } from './lesson-store.ts';
import { lessonViewerUrl, presentLessonForPupil } from './lesson.presenter.ts';
import { signLessonSeat } from './lesson-token.ts';

/**
 * A signed-in pupil's seat id: the same on every join of that user to that lesson (a reload of the
 * join page takes the same seat), yet no user id shown to the class.
 */
const signedInSeat = (secret: string, lessonId: string, userId: number) =>
  `s${sign(secret, 'lesson-pupil', `${lessonId}:${userId}`).slice(0, 22)}`;

/** The live lesson of a code: Redis knows it, else PostgreSQL (Redis lost it; liveLesson restores it). */
async function lessonOfCode(deps: ServerDeps, code: string) {
  const id =
    (await lessonStore(deps).lessonOfCode(code)) ??
    (await deps.db.lesson.findFirst({ where: { code, status: 'live' }, select: { id: true } }))?.id;
  const live = id ? await liveLesson(deps, id) : null;
  return live && live.code === code ? live : null;
}

/**
 * POST /lessons/join (public): a seat in the live lesson of a code. A signed-in pupil (`actor`) joins
 * under their own name; a guest under the name they typed, kept only in the lesson's Redis roster and
 * in their seat token. Unknown or ended code: 404; full: 409; removed from it: 403.
 */
export async function joinLesson(
  deps: ServerDeps,
  actor: Actor | null,
  input: JoinLesson,
): Promise<LessonForPupil> {
  const live = await lessonOfCode(deps, input.code);
  if (!live) throw AppError.notFound(MSG.lessonNotFound);
  const name = actor ? actor.user.name.slice(0, LESSON_LIMITS.pupilName) : input.name;
  if (!name) throw AppError.field('name', MSG.lessonNameRequired, 400);
  const seatId = actor
    ? signedInSeat(deps.config.SIGNING_SECRET, live.id, actor.user.id)
    : `g${randomBytes(16).toString('base64url')}`;
  return seatPupil(deps, live, { seatId, name, userId: actor?.user.id ?? null });
}

/**
 * Seats a pupil in a live lesson (a seat already theirs is taken again) and answers their seat token
 * and viewer frame: full 409, removed 403. `userId` is a signed-in pupil's (shown as signed in).
 */
export async function seatPupil(
  deps: ServerDeps,
  live: LessonLive,
  pupil: { seatId: string; name: string; userId: number | null },
): Promise<LessonForPupil> {
  const { seatId, name, userId } = pupil;
  const seated = await lessonStore(deps).seat(
    live,
    seatId,
    { name, signedIn: userId !== null },
    LESSON_LIMITS.pupils,
  );
  if (seated === 'full') throw AppError.conflict(MSG.lessonFull);
  if (seated === 'removed') throw AppError.forbidden(MSG.lessonRemoved);
  const model = await deps.db.model.findFirst({
    where: { id: live.modelId },
    select: { urlModelName: true, version: true },
  });
  if (!model) throw AppError.notFound(MSG.lessonNotFound);
  const socketToken = signLessonSeat(deps.config.SIGNING_SECRET, {
    lessonId: live.id,
    tenantId: live.tenantId,
    modelId: live.modelId,
    role: 'pupil',
    seatId,
    name,
    userId,
  });
  return presentLessonForPupil({
    lessonId: live.id,
    pupilId: seatId,
    name,
    modelName: live.modelName,
    socketToken,
    viewerUrl: lessonViewerUrl(deps.config, model, socketToken),
  });
}
