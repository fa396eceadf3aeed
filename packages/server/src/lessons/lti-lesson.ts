import { MSG } from '@helix/shared';
import { LESSON_LIMITS, type LessonForPupil } from '@helix/shared/lessons';
import { LTI_CLAIM, type LtiResourceLinkClaims } from '@helix/shared/schemas/lti';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { sign } from '../models/signing.ts';
import type { Actor } from '../sessions/session.service.ts';
import { verifyLtiViewerTicket } from '../lti/lti-viewer-ticket.ts';
import { liveLesson } from './lesson-live.ts';
import { lessonJoinUrl } from './lesson.presenter.ts';
import { seatPupil } from './join-lesson.command.ts';

/**
 * Live lessons from a course (docs/live-lessons.md, "From a course (LTI)"): a lesson started with an
 * instructor's LTI launch ticket belongs to that course (`ltiContextId`); a learner's launch of the
 * same model in that course lands in it, seated under the name the platform sent, one seat per LTI
 * user per lesson.
 */

/** Roles that teach the course (LIS v2 context and institution roles, and LTI 1.1's short names). */
const TEACHING_ROLES = [
  'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
  'http://purl.imsglobal.org/vocab/lis/v2/membership#Administrator',
  'http://purl.imsglobal.org/vocab/lis/v2/membership#ContentDeveloper',
  'http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant',
  'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor',
  'http://purl.imsglobal.org/vocab/lis/v2/institution/person#Administrator',
  'Instructor',
  'Administrator',
];

export const teachesCourse = (claims: LtiResourceLinkClaims): boolean =>
  claims[LTI_CLAIM.roles].some((role) => TEACHING_ROLES.includes(role));

/**
 * The learner's name for a lesson's roster: the platform's `name`, else given and family name; held
 * to a pupil name's rules (40 characters, no control characters or angle brackets). Undefined when the
 * platform shares no name (the seat is then named MSG.lessonLtiPupil).
 */
export function launchName(claims: LtiResourceLinkClaims): string | undefined {
  const raw = claims.name?.trim() || [claims.given_name, claims.family_name].filter(Boolean).join(' ');
  const clean = raw
    .replace(/[\p{Cc}<>]/gu, '')
    .trim()
    .slice(0, LESSON_LIMITS.pupilName)
    .trim();
  return clean || undefined;
}

/** The live lesson of a course on a model (the latest started), if one is live. */
export async function liveLessonOfCourse(
  deps: ServerDeps,
  where: { tenantId: number; modelId: number; courseId: number },
): Promise<{ id: string; joinUrl: string } | null> {
  const rows = await deps.db.lesson.findMany({
    where: {
      tenantId: where.tenantId,
      modelId: where.modelId,
      ltiContextId: where.courseId,
      status: 'live',
    },
    orderBy: { startedAt: 'desc' },
    select: { id: true },
    take: 3,
  });
  for (const row of rows) {
    const live = await liveLesson(deps, row.id);
    if (live) return { id: live.id, joinUrl: lessonJoinUrl(deps.config, live.code) };
  }
  return null;
}

/** A learner's seat id in a lesson: the same on every launch of that LTI user, not linkable across lessons. */
const ltiSeat = (secret: string, lessonId: string, pupil: string) =>
  `t${sign(secret, 'lesson-lti-pupil', `${lessonId}:${pupil}`).slice(0, 22)}`;

/**
 * POST /lessons/join/lti: a learner's LTI launch ticket (the one the launch put after `#lti=` on the
 * join page) takes a seat in the live lesson of its course and model. No live lesson for it: 404.
 */
export async function joinLessonByLti(deps: ServerDeps, ticket: string): Promise<LessonForPupil> {
  const secret = deps.config.SIGNING_SECRET;
  const launch = verifyLtiViewerTicket(secret, ticket);
  if (!launch) throw AppError.notFound(MSG.lessonNotFound);
  const lesson = await liveLessonOfCourse(deps, {
    tenantId: launch.t,
    modelId: launch.m,
    courseId: launch.c,
  });
  const live = lesson ? await liveLesson(deps, lesson.id) : null;
  if (!live) throw AppError.notFound(MSG.lessonNotFound);
  return seatPupil(deps, live, {
    seatId: ltiSeat(secret, live.id, launch.v),
    name: launch.n ?? MSG.lessonLtiPupil,
    userId: null,
  });
}

/**
 * The course and model a teacher starts a lesson for: an instructor's LTI launch ticket of the same
 * school (what the launch's teaching page holds), on `modelId` when one is named. Anything else: 403.
 */
export function instructorLaunchOf(
  deps: ServerDeps,
  actor: Actor,
  ticket: string,
  modelId: number | undefined,
): { courseId: number; modelId: number } {
  const launch = verifyLtiViewerTicket(deps.config.SIGNING_SECRET, ticket);
  if (
    !launch ||
    launch.r !== 'i' ||
    launch.t !== actor.tenant.id ||
    (modelId !== undefined && launch.m !== modelId)
  ) {
    throw AppError.forbidden(MSG.lessonLtiTicketInvalid);
  }
  return { courseId: launch.c, modelId: launch.m };
}
