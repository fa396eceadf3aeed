import {
  LessonForPupil,
  LessonForTeacher,
  type JoinLesson,
  type JoinLessonByLti,
  type StartLesson,
} from '@helix/shared/lessons';
import { baseSessionApi, tenantApi } from '../api/client';

/**
 * POST /lessons: start a live lesson on a model (the teacher's tenant). `toast: false` when the page
 * shows the refusal itself (the start from a course).
 */
export async function startLesson(
  input: StartLesson,
  options: { toast?: boolean } = {},
): Promise<LessonForTeacher> {
  return LessonForTeacher.parse(await tenantApi.post('/lessons', input, options));
}

/** GET /lessons/{id}: the lesson and the teacher's tokens (the teacher's page, also after a reload). */
export async function fetchLesson(id: string, signal?: AbortSignal): Promise<LessonForTeacher> {
  return LessonForTeacher.parse(
    await tenantApi.get(`/lessons/${encodeURIComponent(id)}`, { signal, toast: false }),
  );
}

/**
 * POST /api/lessons/join: a public call, with the session when there is one (a signed-in pupil joins
 * under their own name). The form shows the refusals (404, 409, 429) itself: no toast.
 */
export async function joinLesson(input: JoinLesson): Promise<LessonForPupil> {
  return LessonForPupil.parse(await baseSessionApi.post('/lessons/join', input, { toast: false }));
}

/**
 * POST /api/lessons/join/lti: a learner's LTI launch ticket (what the launch put after `#lti=` on the
 * join page) takes the LTI user's seat, named by the platform. The join page shows refusals: no toast.
 */
export async function joinLessonByLti(input: JoinLessonByLti): Promise<LessonForPupil> {
  return LessonForPupil.parse(await baseSessionApi.post('/lessons/join/lti', input, { toast: false }));
}
