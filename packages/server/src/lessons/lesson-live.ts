import type { LessonEndReason } from '@helix/shared/lessons';
import type { ServerDeps } from '../deps.ts';
import { LESSON_TOKEN_TTL_SECONDS, type LessonSeat } from './lesson-token.ts';
import { LessonStore, type LessonLive } from './lesson-store.ts';

/** The lesson store of the process's Redis client. */
export const lessonStore = (deps: Pick<ServerDeps, 'redis' | 'config'>): LessonStore =>
  new LessonStore(deps.redis, deps.config.REDIS_PREFIX);

/** When the seat tokens of a lesson started at `startedAt` expire (ms): its Redis keys go then too. */
export const lessonExpiresAt = (startedAt: Date): number =>
  startedAt.getTime() + LESSON_TOKEN_TTL_SECONDS * 1000;

/**
 * The live state of a lesson, or null when it is over. Redis holds it; when Redis has lost it (a
 * restart without persistence) while PostgreSQL still has the lesson live, it is restored from the
 * record: mode follow, the teacher leading, no view until the leader sends one, and the roster filled
 * again as the pupils reconnect with their seat tokens (docs/live-lessons.md, "Redis").
 */
export async function liveLesson(
  deps: Pick<ServerDeps, 'redis' | 'config' | 'db'>,
  id: string,
): Promise<LessonLive | null> {
  const store = lessonStore(deps);
  const live = await store.live(id);
  if (live) return live;
  const row = await deps.db.lesson.findFirst({
    where: { id, status: 'live' },
    select: {
      id: true,
      tenantId: true,
      modelId: true,
      teacherId: true,
      code: true,
      startedAt: true,
      model: { select: { name: true } },
    },
  });
  if (!row) return null;
  const expiresAt = lessonExpiresAt(row.startedAt);
  if (expiresAt <= Date.now()) return null;
  await store.create(
    {
      id: row.id,
      tenantId: row.tenantId,
      modelId: row.modelId,
      modelName: row.model.name,
      teacherId: row.teacherId,
      code: row.code,
      expiresAt,
    },
    Date.now() + deps.config.LESSON_IDLE_MS,
  );
  return store.live(id);
}

/** The seat may take part (the live state), or why not: the lesson is over, or the pupil was removed. */
export async function checkSeat(
  deps: Pick<ServerDeps, 'redis' | 'config' | 'db'>,
  seat: LessonSeat,
): Promise<{ reason: LessonEndReason } | { live: LessonLive }> {
  const live = await liveLesson(deps, seat.lessonId);
  if (!live || live.tenantId !== seat.tenantId || live.modelId !== seat.modelId) {
    const row = await deps.db.lesson.findFirst({
      where: { id: seat.lessonId },
      select: { endedReason: true },
    });
    return { reason: row?.endedReason === 'idle' ? 'idle' : 'ended' };
  }
  if (seat.role === 'pupil' && (await lessonStore(deps).isRemoved(seat.lessonId, seat.seatId))) {
    return { reason: 'removed' };
  }
  return { live };
}
