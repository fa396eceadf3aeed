import type { z } from 'zod';
import { MSG } from '@helix/shared';
import {
  LESSON_EVENTS,
  LESSON_LIMITS,
  LessonControlEvent,
  LessonModeEvent,
  LessonRemoveEvent,
  LessonViewSend,
  type LessonAck,
  type LessonWelcome,
} from '@helix/shared/lessons';
import { liveLesson } from '@helix/server/lessons/lesson-live';
import { lessonSockets } from '@helix/server/metrics/metrics';
import { lessonRooms, type LessonRealtime, type LessonSocket } from './lesson-realtime.ts';

type Ack = (answer: LessonAck) => void;
const noAck: Ack = () => undefined;
const ackOf = (args: unknown[]): Ack => {
  const last = args.at(-1);
  return typeof last === 'function' ? (last as Ack) : noAck;
};

/**
 * One admitted connection (a teacher's or a pupil's seat, lesson-realtime.ts): its rooms, presence and
 * `welcome` with the current state, then its events. Every handler validates its input with the shared
 * schema and drops (or refuses with an ack) what does not parse; a failure is logged, never thrown.
 */
export function onLessonConnection(realtime: LessonRealtime, socket: LessonSocket): void {
  const { seat } = socket.data;
  const lessonId = seat.lessonId;
  const rooms = lessonRooms(lessonId);
  const store = realtime.store;
  const log = realtime.deps.logger;
  const isTeacher = seat.role === 'teacher';
  const lesson = { id: lessonId, expiresAt: seat.exp * 1000 };

  const guard =
    (name: string, fn: (...args: unknown[]) => Promise<void>) =>
    (...args: unknown[]) => {
      fn(...args).catch((error: unknown) => {
        log.warn({ err: error, event: name, lessonId }, 'lesson event failed');
        ackOf(args)({ ok: false, message: MSG.serviceUnavailable });
      });
    };

  /** A teacher event: the teacher only, its payload parsed, answered with an ack. */
  const teacherEvent = <S extends z.ZodType>(
    name: string,
    schema: S,
    fn: (input: z.output<S>) => Promise<LessonAck>,
  ) =>
    socket.on(
      name,
      guard(name, async (...args: unknown[]) => {
        const ack = ackOf(args);
        if (!isTeacher) return ack({ ok: false, message: MSG.unauthorizedAccess });
        const input = schema.safeParse(typeof args[0] === 'function' ? {} : args[0]);
        if (!input.success)
          return ack({ ok: false, message: input.error.issues[0]?.message ?? MSG.somethingWentWrong });
        ack(await fn(input.data));
      }),
    );

  // ---- views: the leader's only, at most LESSON_LIMITS.viewsPerSecond per connection ----
  socket.on(
    LESSON_EVENTS.view,
    guard('view', async (payload: unknown) => {
      const now = Date.now();
      const window = socket.data.window;
      if (now - window.start >= 1000) {
        window.start = now;
        window.count = 0;
      }
      if (window.count >= LESSON_LIMITS.viewsPerSecond) return;
      window.count += 1;
      const sent = LessonViewSend.safeParse(payload);
      if (!sent.success) return;
      await realtime.acceptView(socket, sent.data);
    }),
  );

  // ---- the teacher's events ----
  teacherEvent(LESSON_EVENTS.control, LessonControlEvent, async ({ pupilId }) => {
    if (!(await store.control(lessonId, pupilId))) return { ok: false, message: MSG.lessonPupilGone };
    realtime.io.to(rooms.all).emit(LESSON_EVENTS.control, { pupilId });
    return { ok: true };
  });
  teacherEvent(LESSON_EVENTS.mode, LessonModeEvent, async ({ mode }) => {
    await store.setMode(lessonId, mode);
    realtime.io.to(rooms.all).emit(LESSON_EVENTS.mode, { mode });
    return { ok: true };
  });
  teacherEvent(LESSON_EVENTS.remove, LessonRemoveEvent, async ({ pupilId }) => {
    const { tookControl } = await store.remove(lesson, pupilId);
    realtime.over(rooms.seat(pupilId), 'removed');
    if (tookControl) realtime.io.to(rooms.all).emit(LESSON_EVENTS.control, { pupilId: null });
    await realtime.roster(lessonId);
    return { ok: true };
  });
  socket.on(
    LESSON_EVENTS.end,
    guard('end', async (...args: unknown[]) => {
      const ack = ackOf(args);
      if (!isTeacher) return ack({ ok: false, message: MSG.unauthorizedAccess });
      ack({ ok: true });
      await realtime.end(lessonId, 'ended');
    }),
  );

  // This process's lesson sockets by role (helix_lesson_sockets): which process holds whom.
  const role = isTeacher ? 'teacher' : 'pupil';
  lessonSockets.inc({ role });
  socket.on('disconnect', () => {
    lessonSockets.dec({ role });
    if (isTeacher) realtime.teacherPresent(lessonId, -1);
    void (async () => {
      await store.presence(lesson, seat.seatId, -1);
      // The teacher gone: the idle time counts from now (the sweep stops moving it).
      if (isTeacher) await store.keepAlive([lessonId], realtime.idleDeadline());
      else await realtime.roster(lessonId);
    })().catch((error: unknown) => log.warn({ err: error, lessonId }, 'lesson disconnect failed'));
  });

  // ---- admitted: rooms, presence, the current state ----
  void socket.join([rooms.all, isTeacher ? rooms.teacher : rooms.seat(seat.seatId)]);
  if (isTeacher) realtime.teacherPresent(lessonId, 1);
  void (async () => {
    if (!isTeacher) {
      // Seated again if Redis lost the roster (its token says who it is).
      await store.seat(
        lesson,
        seat.seatId,
        { name: seat.name, signedIn: seat.userId !== null },
        LESSON_LIMITS.pupils,
      );
    }
    await store.presence(lesson, seat.seatId, 1);
    if (isTeacher) await store.keepAlive([lessonId], realtime.idleDeadline());
    const live = await liveLesson(realtime.deps, lessonId);
    if (!live) {
      socket.emit(LESSON_EVENTS.over, { reason: 'ended' });
      socket.disconnect(true);
      return;
    }
    const welcome: LessonWelcome = {
      role: seat.role,
      you: seat.seatId,
      lessonId,
      modelName: live.modelName,
      mode: live.mode,
      control: live.control,
      view: live.view,
      pupils: isTeacher ? await store.roster(lessonId) : [],
    };
    socket.emit(LESSON_EVENTS.welcome, welcome);
    if (!isTeacher) await realtime.roster(lessonId);
  })().catch((error: unknown) => {
    log.warn({ err: error, lessonId }, 'lesson welcome failed');
    // Closed without a word: the client reconnects and is welcomed again.
    socket.conn.close();
  });
}
