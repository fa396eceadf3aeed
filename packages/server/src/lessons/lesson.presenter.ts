import type { LessonForPupil, LessonForTeacher, LessonSummary } from '@helix/shared/lessons';
import type { Config } from '../config.ts';
import type { Lesson } from '../db.ts';
import { viewerPageUrl } from '../models/viewer-urls.ts';

/** The portal's join page of a code (the QR code's and the link's address). */
export const lessonJoinUrl = (config: Pick<Config, 'PUBLIC_URL'>, code: string): string =>
  `${config.PUBLIC_URL.replace(/\/+$/, '')}/join/${code}`;

/**
 * The portal page that starts (or reopens) a course's lesson with an instructor's LTI launch ticket,
 * in a tab of its own where the teacher's Helix session applies (a sign-in first comes back to it).
 */
export const lessonStartUrl = (config: Pick<Config, 'PUBLIC_URL'>, ticket: string): string =>
  `${config.PUBLIC_URL.replace(/\/+$/, '')}/user/lessons/start?lti=${encodeURIComponent(ticket)}`;

export function presentLessonSummary(
  config: Pick<Config, 'PUBLIC_URL'>,
  lesson: Pick<Lesson, 'id' | 'code' | 'modelId' | 'status' | 'startedAt'> & { model: { name: string } },
  idleEndsAt: number | null,
): LessonSummary {
  return {
    id: lesson.id,
    code: lesson.code,
    joinUrl: lessonJoinUrl(config, lesson.code),
    modelId: lesson.modelId,
    modelName: lesson.model.name,
    status: lesson.status,
    startedAt: lesson.startedAt.toISOString(),
    idleEndsAt: lesson.status === 'live' && idleEndsAt !== null ? new Date(idleEndsAt).toISOString() : null,
  };
}

/** The viewer frame of a seat: mode 'lesson', the seat token as its credential. */
export const lessonViewerUrl = (
  config: Pick<Config, 'VIEWER_URL'>,
  model: { urlModelName: string; version: number },
  token: string,
): string => viewerPageUrl(config, model, token, 'lesson');

export const presentLessonForTeacher = (
  summary: LessonSummary,
  socketToken: string,
  viewerUrl: string,
): LessonForTeacher => ({ lesson: summary, socketToken, viewerUrl });

export const presentLessonForPupil = (answer: LessonForPupil): LessonForPupil => ({
  lessonId: answer.lessonId,
  pupilId: answer.pupilId,
  name: answer.name,
  modelName: answer.modelName,
  socketToken: answer.socketToken,
  viewerUrl: answer.viewerUrl,
});
