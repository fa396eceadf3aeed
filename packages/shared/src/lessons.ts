import { z } from 'zod';
import { MSG } from './messages.ts';

/**
 * Live lessons (issue 32): a teacher leads, the class's tablets follow. The one contract between the
 * API (REST + socket.io), the portal's lesson pages and the viewer frame (postMessage):
 *
 *   teacher's page ──REST──> API: start, end (tenant calls; permission Lesson.lead, plan liveLessons)
 *   pupil's page   ──REST──> API: join by code (public, rate-limited; a session is used when present)
 *   both pages     ──socket.io (LESSON_SOCKET_PATH, websocket only, auth { token })──> any API process,
 *                  rooms shared through Redis (@socket.io/redis-adapter); the lesson's current view,
 *                  control, mode and roster live in Redis, so any process answers a (re)connect at once
 *   page <──postMessage──> viewer frame (VIEWER_MODES 'lesson'): the page relays views both ways
 *
 * A view is the whole visible state (LessonView), never a delta: a message that is dropped or overtaken
 * costs nothing, the latest one wins (coalesced on every hop), and a late joiner gets the current one.
 */

// ---- limits ----------------------------------------------------------------------------------------

export const LESSON_LIMITS = {
  /** Join code: 6 characters of LESSON_CODE_ALPHABET (~1e9 codes; guessing is rate-limited too). */
  codeLength: 6,
  pupilName: 40,
  /** Pupils in one lesson at once (a lecture hall, not a classroom). */
  pupils: 500,
  partName: 200,
  /** Hidden parts and coloured parts listed in one view. */
  parts: 500,
  /** Views a sender may send per second (the teacher's camera at 30 per second, some slack). */
  viewsPerSecond: 40,
} as const;

/** No 0/O, 1/I/L: a code read off a board and typed on a tablet. */
export const LESSON_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** socket.io's path on the API's origin (nginx proxies it with the websocket upgrade). */
export const LESSON_SOCKET_PATH = '/api/lessons/socket.io';

// ---- the view --------------------------------------------------------------------------------------

const finite = z.number().finite();
const vec3 = z.tuple([finite, finite, finite]);
const partName = z.string().min(1).max(LESSON_LIMITS.partName);

/** Everything a follower's viewer shows of the leader's, in the model's world coordinates. */
export const LessonView = z.object({
  camera: z.object({ position: vec3, target: vec3 }),
  /** The selected (highlighted) part, by its name in the model. */
  selected: partName.nullable(),
  /** Parts switched off (the viewer's layers). */
  hiddenParts: z.array(partName).max(LESSON_LIMITS.parts),
  /** A cut-away: one clipping plane across an axis, at `offset` of the model's extent (-1 to 1). */
  cutaway: z.object({ axis: z.enum(['x', 'y', 'z']), offset: z.number().min(-1).max(1) }).nullable(),
  labels: z.boolean(),
  /** Part colours set by the leader (#rrggbb), over the model's own. */
  colours: z
    .record(partName, z.string().regex(/^#[0-9a-fA-F]{6}$/))
    .refine((c) => Object.keys(c).length <= LESSON_LIMITS.parts),
  /** The leader's pointer: a point on the model (world coordinates), null when not pointing. */
  pointer: vec3.nullable(),
});
export type LessonView = z.infer<typeof LessonView>;

/** A view as it travels: who sent it and its sequence number (per lesson, increasing), so older loses. */
export const LessonViewMessage = z.object({
  seq: z.number().int().nonnegative(),
  /** 'teacher' or a pupil's id (the pupil given control). */
  by: z.string().max(64),
  /** The sender's clock (ms since epoch) when it sent: for measuring fan-out, never trusted. */
  sentAt: z.number().finite(),
  view: LessonView,
});
export type LessonViewMessage = z.infer<typeof LessonViewMessage>;

// ---- who is in, who leads --------------------------------------------------------------------------

/** follow: every pupil shows the leader's view; free: pupils explore on their own until called back. */
export const LESSON_MODES = ['follow', 'free'] as const;
export type LessonMode = (typeof LESSON_MODES)[number];

export const LessonPupil = z.object({
  id: z.string().max(64),
  name: z.string().max(LESSON_LIMITS.pupilName),
  /** Signed in (a portal account) or a name of their own choosing. */
  signedIn: z.boolean(),
  connected: z.boolean(),
});
export type LessonPupil = z.infer<typeof LessonPupil>;

/** What a (re)connecting client gets at once: the current state, not a replay. */
export const LessonWelcome = z.object({
  role: z.enum(['teacher', 'pupil']),
  /** The pupil's own id ('teacher' for the teacher). */
  you: z.string().max(64),
  lessonId: z.string(),
  modelName: z.string(),
  mode: z.enum(LESSON_MODES),
  /** The pupil holding control, null when the teacher leads. */
  control: z.string().nullable(),
  /** The current view, null until the leader's viewer has sent one. */
  view: LessonViewMessage.nullable(),
  /** The roster: the teacher's only (pupils get an empty list). */
  pupils: z.array(LessonPupil),
});
export type LessonWelcome = z.infer<typeof LessonWelcome>;

/** Why a client's lesson is over for it. */
export const LESSON_END_REASONS = ['ended', 'idle', 'removed'] as const;
export type LessonEndReason = (typeof LESSON_END_REASONS)[number];

/**
 * socket.io events. Client to server: `view` (leader only; others are ignored), and the teacher's
 * `control` { pupilId | null }, `mode` { mode }, `remove` { pupilId }, `end` {}. Each teacher event is
 * acknowledged with { ok: true } or { ok: false, message }.
 * Server to client: `welcome` (on every connect), `view`, `control`, `mode`, `roster` (teacher only),
 * `over` { reason } (then the server disconnects it). A seat whose lesson is over when it (re)connects
 * is answered `over` too (or its connect refused with error data { reason }), so a tablet that was
 * offline when the lesson ended learns it; any other refused connect is retried by the client.
 */
export const LESSON_EVENTS = {
  welcome: 'welcome',
  view: 'view',
  control: 'control',
  mode: 'mode',
  roster: 'roster',
  remove: 'remove',
  end: 'end',
  over: 'over',
} as const;

/** `roster` (server to the teacher): everyone in the lesson, whenever someone joins, leaves or drops. */
export const LessonRosterEvent = z.object({ pupils: z.array(LessonPupil).max(LESSON_LIMITS.pupils) });
export type LessonRosterEvent = z.infer<typeof LessonRosterEvent>;
export const LessonControlEvent = z.object({ pupilId: z.string().max(64).nullable() });
export const LessonModeEvent = z.object({ mode: z.enum(LESSON_MODES) });
export const LessonRemoveEvent = z.object({ pupilId: z.string().max(64) });
export const LessonOverEvent = z.object({ reason: z.enum(LESSON_END_REASONS) });
export type LessonAck = { ok: true } | { ok: false; message: string };

/**
 * What a leader's client sends as `view`: the view and its clock (the server adds seq and by). A
 * LessonViewMessage is accepted too (its seq and by are ignored), and so is a bare LessonView (sentAt
 * is then the server's clock).
 */
export const LessonViewSend = z.union([
  z.object({ view: LessonView, sentAt: finite }),
  LessonView.transform((view) => ({ view, sentAt: Date.now() })),
]);
export type LessonViewSend = z.input<typeof LessonViewSend>;

/**
 * A connect the server refused (socket.io's `connect_error`, its `data`): the lesson is over for this
 * seat (`ended`, `idle`, `removed`: show it, do not retry), the token is not valid (`invalid`), or the
 * server could not check it now (`unavailable`: retry after a moment). socket.io does not retry a
 * refused connect by itself.
 */
export const LessonConnectError = z.object({
  reason: z.enum([...LESSON_END_REASONS, 'invalid', 'unavailable']),
});
export type LessonConnectError = z.infer<typeof LessonConnectError>;

// ---- REST ------------------------------------------------------------------------------------------

/**
 * POST /api/t/:tenant/lessons: start a lesson on a model the teacher can see, named by its id, by an
 * instructor's LTI launch ticket (the course's teaching page), or both (then they must agree).
 */
export const StartLesson = z
  .object({
    modelId: z.number().int().positive().optional(),
    /**
     * An instructor's LTI launch ticket (the `subscription` of the launch's viewer page, or the `lti` of
     * the teaching page's start link): the lesson is then the course's (its pupils' launches land in
     * it; views credited to the course), on the ticket's model.
     */
    ltiTicket: z.string().min(1).max(1200).optional(),
  })
  .refine((input) => input.modelId !== undefined || input.ltiTicket !== undefined, {
    message: MSG.lessonModelGone,
    path: ['modelId'],
  });
export type StartLesson = z.infer<typeof StartLesson>;

/** A lesson as its teacher sees it. `joinUrl` is the portal's /join/{code}. */
export const LessonSummary = z.object({
  id: z.string(),
  code: z.string(),
  joinUrl: z.string(),
  modelId: z.number().int(),
  modelName: z.string(),
  status: z.enum(['live', 'ended']),
  startedAt: z.string(),
  /** When it ends if nobody leads meanwhile (idle time), ISO. */
  idleEndsAt: z.string().nullable(),
});
export type LessonSummary = z.infer<typeof LessonSummary>;

/** The answer of start and of GET /api/t/:tenant/lessons/:id: the lesson and the teacher's tokens. */
export const LessonForTeacher = z.object({
  lesson: LessonSummary,
  /** The socket's auth token (signed, the lesson's lifetime at most). */
  socketToken: z.string(),
  /** The viewer frame's address (mode 'lesson', the teacher's own viewer ticket). */
  viewerUrl: z.string(),
});
export type LessonForTeacher = z.infer<typeof LessonForTeacher>;

const pupilName = z
  .string({ error: MSG.lessonNameRequired })
  .trim()
  .min(1, { error: MSG.lessonNameRequired })
  .max(LESSON_LIMITS.pupilName, { error: MSG.lessonNameTooLong })
  // No control characters or markup-looking angle brackets in a name shown on 30 screens.
  .refine((name) => !/[\p{Cc}<>]/u.test(name), { error: MSG.lessonNameInvalid });

/** POST /api/lessons/join: a code and a name (the name is ignored for a signed-in pupil). */
export const JoinLesson = z.object({
  code: z
    .string({ error: MSG.lessonCodeRequired })
    .trim()
    .toUpperCase()
    .length(LESSON_LIMITS.codeLength, { error: MSG.lessonCodeInvalid }),
  name: pupilName.optional(),
});
export type JoinLesson = z.infer<typeof JoinLesson>;

/** POST /api/lessons/join/lti: a learner's LTI launch ticket (the join page's `#lti=`). */
export const JoinLessonByLti = z.object({
  ticket: z.string({ error: MSG.lessonNotFound }).min(1).max(1200),
});
export type JoinLessonByLti = z.infer<typeof JoinLessonByLti>;

/** The answer of join: what the pupil's page needs, nothing stored beyond the lesson. */
export const LessonForPupil = z.object({
  lessonId: z.string(),
  pupilId: z.string(),
  name: z.string(),
  modelName: z.string(),
  socketToken: z.string(),
  viewerUrl: z.string(),
});
export type LessonForPupil = z.infer<typeof LessonForPupil>;

// ---- page <-> viewer frame (postMessage) -------------------------------------------------------------

/**
 * The page tells the viewer frame (messages with source 'helix-lesson', sent to the viewer's origin):
 * - `role`: lead (input on, report views), follow (input off, apply views), free (input on, nothing
 *   reported, applied views kept for when the class is called back);
 * - `apply`: show this view (a follower; the latest wins, applied on the next frame);
 * - `status`: live, reconnecting (shown over the model, input unchanged), over.
 * The viewer tells the page (source 'helix-viewer', posted to the parent): `lesson-view` { view } when
 * it leads and its view changed (at most once per animation frame), and `ready` as today.
 */
export const LessonFrameMessage = z.discriminatedUnion('type', [
  z.object({
    source: z.literal('helix-lesson'),
    type: z.literal('role'),
    role: z.enum(['lead', 'follow', 'free']),
  }),
  z.object({ source: z.literal('helix-lesson'), type: z.literal('apply'), view: LessonView }),
  z.object({
    source: z.literal('helix-lesson'),
    type: z.literal('status'),
    status: z.enum(['live', 'reconnecting', 'over']),
  }),
]);
export type LessonFrameMessage = z.infer<typeof LessonFrameMessage>;

export const ViewerLessonMessage = z.object({
  source: z.literal('helix-viewer'),
  type: z.literal('lesson-view'),
  view: LessonView,
});
export type ViewerLessonMessage = z.infer<typeof ViewerLessonMessage>;
