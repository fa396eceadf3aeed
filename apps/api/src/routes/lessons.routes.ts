import type { Router } from 'express';
import { z } from 'zod';
import { MSG } from '@helix/shared';
import {
  JoinLesson,
  JoinLessonByLti,
  LessonForPupil,
  LessonForTeacher,
  LessonSummary,
  StartLesson,
} from '@helix/shared/lessons';
import type { ServerDeps } from '@helix/server/deps';
import { endTeacherLesson } from '@helix/server/lessons/end-lesson.command';
import { joinLesson } from '@helix/server/lessons/join-lesson.command';
import { joinLessonByLti } from '@helix/server/lessons/lti-lesson';
import { startLesson } from '@helix/server/lessons/start-lesson.command';
import { teacherLessonAnswer } from '@helix/server/lessons/teacher-lesson.query';
import { actorOf, optionalAuth } from '../http/auth.ts';
import { rateLimiter } from '../http/rate-limit.ts';
import { inputOf } from '../http/validate.ts';
import { lessonRealtimeOf, lessonRooms } from '../lessons/lesson-realtime.ts';
import { API, defineRoute, routerOf, TENANT } from './define-route.ts';

const LessonIdParams = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });

/** Guessing codes (or tickets): only failures (404) count, per client address. */
const joinThrottle = (deps: ServerDeps) =>
  rateLimiter({
    redis: deps.redis,
    prefix: deps.config.REDIS_PREFIX,
    logger: deps.logger,
    name: 'lesson-join',
    limit: deps.config.LESSON_JOIN_FAILURES_PER_MINUTE,
    windowSeconds: 60,
    onlyFailures: true,
    failure: (status) => status === 404,
    message: MSG.lessonJoinThrottled,
  });

/**
 * Live lessons (docs/live-lessons.md): the teacher's start, read and end (tenant calls, Lesson.lead
 * sold by the plan), the pupils' join by code (public, a session used when present) and by an LTI launch's ticket. The real-time
 * part is socket.io at LESSON_SOCKET_PATH (lessons/lesson-realtime.ts).
 */
const tenantRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/lessons',
    tag: 'Lessons',
    summary: 'Start a live lesson on a model (or get back the teacher’s live one on it)',
    permission: 'Lesson.lead',
    body: StartLesson,
    ok: LessonForTeacher,
    handler: (deps) => async (req, res) => {
      res.set('Cache-Control', 'no-store');
      res.json(await startLesson(deps, actorOf(req), inputOf(req, StartLesson)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/lessons/:id',
    tag: 'Lessons',
    summary: 'The teacher’s lesson, with fresh tokens',
    who: 'the lesson’s teacher',
    params: LessonIdParams,
    ok: LessonForTeacher,
    handler: (deps) => async (req, res) => {
      res.set('Cache-Control', 'no-store');
      res.json(await teacherLessonAnswer(deps, actorOf(req), inputOf(req, LessonIdParams).id));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/lessons/:id/end',
    tag: 'Lessons',
    summary: 'End the lesson (every pupil is told)',
    who: 'the lesson’s teacher',
    params: LessonIdParams,
    ok: LessonSummary,
    handler: (deps) => async (req, res) => {
      const { id } = inputOf(req, LessonIdParams);
      const { ended, lesson } = await endTeacherLesson(deps, actorOf(req), id);
      if (ended) lessonRealtimeOf(req.app).over(lessonRooms(id).all, 'ended');
      res.json(lesson);
    },
  }),
];

const baseRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/lessons/join',
    tag: 'Lessons',
    summary: 'Join a live lesson by its code',
    description:
      'Public. A signed-in caller (Bearer session) joins under their own name; a guest needs `name`. ' +
      'Unknown or ended code: 404; the lesson full: 409; removed from it: 403. Wrong codes are limited per ' +
      'address (LESSON_JOIN_FAILURES_PER_MINUTE): 429 with Retry-After.',
    body: JoinLesson,
    limited: true,
    errors: [403, 404, 409],
    ok: LessonForPupil,
    before: (deps) => [joinThrottle(deps), optionalAuth(deps.db)],
    handler: (deps) => async (req, res) => {
      res.set('Cache-Control', 'no-store');
      res.json(await joinLesson(deps, req.actor ?? null, inputOf(req, JoinLesson)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/lessons/join/lti',
    tag: 'Lessons',
    summary: 'Join the live lesson of a course from an LTI launch',
    description:
      'Public. `ticket` is what a learner’s LTI launch put after `#lti=` on the join page: a seat in the live ' +
      'lesson of that course and model, under the name the learning platform sent, one seat per LTI user per ' +
      'lesson. No live lesson for it (or a ticket not valid): 404; full: 409; removed: 403. Failures are ' +
      'limited per address like wrong codes.',
    body: JoinLessonByLti,
    limited: true,
    errors: [403, 404, 409],
    ok: LessonForPupil,
    before: (deps) => [joinThrottle(deps)],
    handler: (deps) => async (req, res) => {
      res.set('Cache-Control', 'no-store');
      res.json(await joinLessonByLti(deps, inputOf(req, JoinLessonByLti).ticket));
    },
  }),
];

export const lessonTenantRoutes = (deps: ServerDeps): Router => routerOf(deps, TENANT, tenantRoutes);
export const lessonRoutes = (deps: ServerDeps): Router => routerOf(deps, API, baseRoutes);
