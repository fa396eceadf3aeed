import type { Redis } from 'ioredis';
import {
  LESSON_MODES,
  LessonViewMessage,
  type LessonMode,
  type LessonPupil,
  type LessonViewMessage as ViewMessage,
} from '@helix/shared/lessons';
import { defineScript, redisKey } from '../redis.ts';

/**
 * A live lesson's state in Redis (docs/live-lessons.md), so that any API process answers a
 * (re)connect with the current state at once. Every key is under REDIS_PREFIX and expires with the
 * lesson's seat tokens at the latest; ending the lesson deletes them all (nothing of a guest pupil
 * outlives the lesson):
 *
 * - `lesson:<id>` (hash): tenantId, modelId, modelName, teacherId, code, expiresAt (ms), mode,
 *   control (a pupil's seat id, '' while the teacher leads), view (the latest view: JSON of
 *   { by, sentAt, view }) and viewSeq (its sequence number, from the per-lesson counter `seq`);
 * - `lesson:<id>:pupils` (hash): seat id -> JSON { name, signedIn }: the roster;
 * - `lesson:<id>:removed` (set): seat ids the teacher removed (their tokens are refused);
 * - `lesson:<id>:online` (hash): seat id -> open connections (any process);
 * - `lessons:code:<CODE>` (string): the live lesson of a join code (SET NX: unique among live lessons);
 * - `lessons:idle` (sorted set): lesson id -> when it ends unless somebody leads (ms).
 */
export const lessonKeys = (prefix: string, id: string) => ({
  lesson: redisKey(prefix, 'lesson', id),
  pupils: redisKey(prefix, 'lesson', id, 'pupils'),
  removed: redisKey(prefix, 'lesson', id, 'removed'),
  online: redisKey(prefix, 'lesson', id, 'online'),
});
export const lessonCodeKey = (prefix: string, code: string) => redisKey(prefix, 'lessons', 'code', code);
export const lessonIdleKey = (prefix: string) => redisKey(prefix, 'lessons', 'idle');

/** What the live state holds of the lesson itself (written at start, or restored from PostgreSQL). */
export interface LessonRecord {
  id: string;
  tenantId: number;
  modelId: number;
  modelName: string;
  teacherId: number;
  code: string;
  /** When the seat tokens expire (ms): the keys expire then at the latest. */
  expiresAt: number;
}

export interface LessonLive extends LessonRecord {
  mode: LessonMode;
  /** The pupil holding control, null while the teacher leads. */
  control: string | null;
  view: ViewMessage | null;
}

/**
 * Creates the state unless it exists (a restore after Redis lost it is the same call): the lesson's
 * hash, its code (when still free) and its idle deadline. KEYS: lesson, code, idle. ARGV: id,
 * expiresAt, idle deadline, then field/value pairs.
 */
const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('PEXPIREAT', KEYS[1], ARGV[2])
redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PXAT', ARGV[2])
redis.call('ZADD', KEYS[3], 'NX', ARGV[3], ARGV[1])
return 1`;

/**
 * A view from `by`: refused (-1) unless `by` leads (the pupil holding control, else the teacher), -2
 * when the lesson is not live here; else the next sequence number, the view stored as the latest and
 * the idle deadline moved on. KEYS: lesson, idle. ARGV: by, payload, id, idle deadline.
 */
const VIEW = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -2 end
local control = redis.call('HGET', KEYS[1], 'control')
local leader = 'teacher'
if control and control ~= '' then leader = control end
if ARGV[1] ~= leader then return -1 end
local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
redis.call('HSET', KEYS[1], 'view', ARGV[2], 'viewSeq', seq)
redis.call('ZADD', KEYS[2], 'XX', ARGV[4], ARGV[3])
return seq`;

/**
 * A pupil takes a seat: -1 when removed, 0 when the lesson is full, 1 when seated (again). KEYS:
 * pupils, removed. ARGV: seat, JSON, most pupils, expiresAt.
 */
const SEAT = `
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return -1 end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIREAT', KEYS[1], ARGV[4])
return 1`;

/** Connections of a seat, +1 or -1 (none left: the field goes). KEYS: online. ARGV: seat, delta, expiresAt. */
const PRESENCE = `
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
if n <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
return n`;

/**
 * Hands control to a seated pupil, or back to the teacher (''): 0 when the pupil is not seated, -2
 * when the lesson is not live. KEYS: lesson, pupils. ARGV: seat or ''.
 */
const CONTROL = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -2 end
if ARGV[1] ~= '' and redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'control', ARGV[1])
return 1`;

/**
 * Removes a pupil for good: -2 when the lesson is not live, 2 when they held control (taken back),
 * else 1. KEYS: lesson, pupils, removed. ARGV: seat, expiresAt.
 */
const REMOVE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -2 end
redis.call('SADD', KEYS[3], ARGV[1])
redis.call('PEXPIREAT', KEYS[3], ARGV[2])
redis.call('HDEL', KEYS[2], ARGV[1])
if redis.call('HGET', KEYS[1], 'control') == ARGV[1] then
  redis.call('HSET', KEYS[1], 'control', '')
  return 2
end
return 1`;

/** Deletes the state; the code only if it is still this lesson's. KEYS: lesson, pupils, removed, online, code, idle. ARGV: id. */
const CLEAR = `
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
if redis.call('GET', KEYS[5]) == ARGV[1] then redis.call('DEL', KEYS[5]) end
redis.call('ZREM', KEYS[6], ARGV[1])
return 1`;

/** Takes (removes) up to ARGV[2] lessons whose idle deadline is before ARGV[1]: exactly one caller gets each. */
const CLAIM_IDLE = `
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, id in ipairs(ids) do redis.call('ZREM', KEYS[1], id) end
return ids`;

interface LessonCommands {
  helixLessonCreate(...args: (string | number)[]): Promise<number>;
  helixLessonView(...args: (string | number)[]): Promise<number>;
  helixLessonSeat(...args: (string | number)[]): Promise<number>;
  helixLessonPresence(...args: (string | number)[]): Promise<number>;
  helixLessonControl(...args: (string | number)[]): Promise<number>;
  helixLessonRemove(...args: (string | number)[]): Promise<number>;
  helixLessonClear(...args: (string | number)[]): Promise<number>;
  helixLessonClaimIdle(...args: (string | number)[]): Promise<string[]>;
}

const defined = new WeakSet<Redis>();
function commands(redis: Redis): Redis & LessonCommands {
  if (!defined.has(redis)) {
    defineScript(redis, 'helixLessonCreate', { numberOfKeys: 3, lua: CREATE });
    defineScript(redis, 'helixLessonView', { numberOfKeys: 2, lua: VIEW });
    defineScript(redis, 'helixLessonSeat', { numberOfKeys: 2, lua: SEAT });
    defineScript(redis, 'helixLessonPresence', { numberOfKeys: 1, lua: PRESENCE });
    defineScript(redis, 'helixLessonControl', { numberOfKeys: 2, lua: CONTROL });
    defineScript(redis, 'helixLessonRemove', { numberOfKeys: 3, lua: REMOVE });
    defineScript(redis, 'helixLessonClear', { numberOfKeys: 6, lua: CLEAR });
    defineScript(redis, 'helixLessonClaimIdle', { numberOfKeys: 1, lua: CLAIM_IDLE });
    defined.add(redis);
  }
  return redis as Redis & LessonCommands;
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** The Redis side of live lessons, for one process's client and REDIS_PREFIX. */
export class LessonStore {
  readonly #redis: Redis & LessonCommands;
  readonly #prefix: string;

  constructor(redis: Redis, prefix: string) {
    this.#redis = commands(redis);
    this.#prefix = prefix;
  }

  #keys(id: string) {
    return lessonKeys(this.#prefix, id);
  }

  /** Reserves a join code for a lesson about to start (SET NX): false when another live lesson has it. */
  async reserveCode(code: string, id: string, expiresAt: number): Promise<boolean> {
    const ok = await this.#redis.set(lessonCodeKey(this.#prefix, code), id, 'PXAT', expiresAt, 'NX');
    return ok === 'OK';
  }

  /** Frees a code reserved for a lesson that did not start (only if still that lesson's). */
  async releaseCode(code: string, id: string): Promise<void> {
    const key = lessonCodeKey(this.#prefix, code);
    if ((await this.#redis.get(key)) === id) await this.#redis.del(key);
  }

  /** The live lesson of a join code, if Redis knows it. */
  lessonOfCode(code: string): Promise<string | null> {
    return this.#redis.get(lessonCodeKey(this.#prefix, code));
  }

  /** Creates the live state unless it exists (start, or a restore from PostgreSQL). */
  async create(record: LessonRecord, idleEndsAt: number): Promise<void> {
    const k = this.#keys(record.id);
    await this.#redis.helixLessonCreate(
      k.lesson,
      lessonCodeKey(this.#prefix, record.code),
      lessonIdleKey(this.#prefix),
      record.id,
      record.expiresAt,
      idleEndsAt,
      ...['tenantId', record.tenantId, 'modelId', record.modelId, 'modelName', record.modelName],
      ...['teacherId', record.teacherId, 'code', record.code, 'expiresAt', record.expiresAt],
      ...['mode', 'follow', 'control', '', 'seq', 0],
    );
  }

  /** The live state, or null when Redis has none (ended, or lost: the caller may restore it). */
  async live(id: string): Promise<LessonLive | null> {
    const h = await this.#redis.hgetall(this.#keys(id).lesson);
    if (!h.tenantId) return null;
    const view =
      h.view && h.viewSeq
        ? LessonViewMessage.safeParse({ ...(parseJson(h.view) as object), seq: Number(h.viewSeq) })
        : null;
    return {
      id,
      tenantId: Number(h.tenantId),
      modelId: Number(h.modelId),
      modelName: h.modelName ?? '',
      teacherId: Number(h.teacherId),
      code: h.code ?? '',
      expiresAt: Number(h.expiresAt),
      mode: (LESSON_MODES as readonly string[]).includes(h.mode ?? '') ? (h.mode as LessonMode) : 'follow',
      control: h.control ? h.control : null,
      view: view?.success ? view.data : null,
    };
  }

  isRemoved(id: string, seatId: string): Promise<boolean> {
    return this.#redis.sismember(this.#keys(id).removed, seatId).then((n) => n === 1);
  }

  /** Seats a pupil: 'removed', 'full' or 'seated' (a seat already taken is taken again). */
  async seat(
    lesson: Pick<LessonRecord, 'id' | 'expiresAt'>,
    seatId: string,
    pupil: { name: string; signedIn: boolean },
    most: number,
  ): Promise<'seated' | 'full' | 'removed'> {
    const k = this.#keys(lesson.id);
    const n = await this.#redis.helixLessonSeat(
      k.pupils,
      k.removed,
      seatId,
      JSON.stringify(pupil),
      most,
      lesson.expiresAt,
    );
    return n === 1 ? 'seated' : n === 0 ? 'full' : 'removed';
  }

  /** One more (+1) or one fewer (-1) open connection of a seat. */
  presence(lesson: Pick<LessonRecord, 'id' | 'expiresAt'>, seatId: string, delta: 1 | -1): Promise<number> {
    return this.#redis.helixLessonPresence(this.#keys(lesson.id).online, seatId, delta, lesson.expiresAt);
  }

  /** The roster as the teacher sees it, by name. */
  async roster(id: string): Promise<LessonPupil[]> {
    const k = this.#keys(id);
    const [pupils, online] = await Promise.all([
      this.#redis.hgetall(k.pupils),
      this.#redis.hgetall(k.online),
    ]);
    return Object.entries(pupils)
      .flatMap(([seatId, json]) => {
        const pupil = parseJson(json) as { name?: unknown; signedIn?: unknown } | null;
        if (typeof pupil?.name !== 'string') return [];
        return [
          {
            id: seatId,
            name: pupil.name,
            signedIn: pupil.signedIn === true,
            connected: Number(online[seatId] ?? 0) > 0,
          },
        ];
      })
      .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  }

  /**
   * A view from seat `by`: its sequence number, or null when `by` does not lead (or the lesson is not
   * live). The idle deadline moves on.
   */
  async view(
    id: string,
    by: string,
    sent: { sentAt: number; view: ViewMessage['view'] },
    idleEndsAt: number,
  ): Promise<number | null> {
    const seq = await this.#redis.helixLessonView(
      this.#keys(id).lesson,
      lessonIdleKey(this.#prefix),
      by,
      JSON.stringify({ by, sentAt: sent.sentAt, view: sent.view }),
      id,
      idleEndsAt,
    );
    return seq > 0 ? seq : null;
  }

  /** Hands control to a seated pupil (or back to the teacher: null): false when the pupil is not seated. */
  async control(id: string, pupilId: string | null): Promise<boolean> {
    const k = this.#keys(id);
    return (await this.#redis.helixLessonControl(k.lesson, k.pupils, pupilId ?? '')) === 1;
  }

  async setMode(id: string, mode: LessonMode): Promise<void> {
    await this.#redis.hset(this.#keys(id).lesson, 'mode', mode);
  }

  /** Removes a pupil for good: whether they held control (now the teacher's again). */
  async remove(
    lesson: Pick<LessonRecord, 'id' | 'expiresAt'>,
    seatId: string,
  ): Promise<{ tookControl: boolean }> {
    const k = this.#keys(lesson.id);
    const n = await this.#redis.helixLessonRemove(k.lesson, k.pupils, k.removed, seatId, lesson.expiresAt);
    return { tookControl: n === 2 };
  }

  /** Moves the idle deadline of live lessons on (somebody leads them). */
  async keepAlive(ids: string[], idleEndsAt: number): Promise<void> {
    if (ids.length === 0) return;
    await this.#redis.zadd(lessonIdleKey(this.#prefix), 'XX', ...ids.flatMap((id) => [idleEndsAt, id]));
  }

  /** When the lesson ends if nobody leads it (ms), null when Redis has no deadline for it. */
  async idleEndsAt(id: string): Promise<number | null> {
    const score = await this.#redis.zscore(lessonIdleKey(this.#prefix), id);
    return score === null ? null : Number(score);
  }

  /** Takes the lessons past their idle deadline (each goes to exactly one caller, across processes). */
  claimIdle(now: number, most = 50): Promise<string[]> {
    return this.#redis.helixLessonClaimIdle(lessonIdleKey(this.#prefix), now, most);
  }

  /** Deletes the lesson's state: roster, removed seats, presence, view, its code and idle deadline. */
  async clear(id: string, code: string): Promise<void> {
    const k = this.#keys(id);
    await this.#redis.helixLessonClear(
      k.lesson,
      k.pupils,
      k.removed,
      k.online,
      lessonCodeKey(this.#prefix, code),
      lessonIdleKey(this.#prefix),
      id,
    );
  }
}
