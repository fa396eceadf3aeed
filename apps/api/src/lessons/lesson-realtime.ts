import type { Server as HttpServer } from 'node:http';
import type { Express } from 'express';
import { Server, type DefaultEventsMap, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import {
  LESSON_EVENTS,
  LESSON_SOCKET_PATH,
  type LessonConnectError,
  type LessonEndReason,
  type LessonRosterEvent,
  type LessonViewMessage,
} from '@helix/shared/lessons';
import { MSG } from '@helix/shared';
import type { ServerDeps } from '@helix/server/deps';
import { endLesson } from '@helix/server/lessons/end-lesson.command';
import { checkSeat, lessonStore } from '@helix/server/lessons/lesson-live';
import { verifyLessonSeat, type LessonSeat } from '@helix/server/lessons/lesson-token';
import { isRedisUnavailable, redisKey, redisOutageOf, watchRedis, type Redis } from '@helix/server/redis';
import type { Draining } from '../http/draining.ts';
import { onLessonConnection } from './lesson-socket.ts';

/** The rooms of a lesson: everyone in it, its teacher's connections, one seat's connections. */
export const lessonRooms = (id: string) => ({
  all: `lesson:${id}`,
  teacher: `lesson:${id}:teacher`,
  seat: (seatId: string) => `lesson:${id}:seat:${seatId}`,
});

/** What a connection carries once admitted. */
interface LessonSocketData {
  seat: LessonSeat;
  /** Views accepted in the current one-second window (LESSON_LIMITS.viewsPerSecond). */
  window: { start: number; count: number };
}
export type LessonSocket = Socket<DefaultEventsMap, DefaultEventsMap, DefaultEventsMap, LessonSocketData>;

/** After the last view of a burst, the latest is sent once more to everyone, reliably, this much later. */
const TRAILING_VIEW_MS = 250;
/** A leader's view Redis could not take is tried again this often until Redis takes it. */
const UNSAVED_RETRY_MS = 500;

/** A leader's latest view that Redis could not store (down, or not answering): stored once it answers. */
interface UnsavedView {
  /** The order views reached this process: a later view always wins over this one. */
  arrival: number;
  by: string;
  sent: { sentAt: number; view: LessonViewMessage['view'] };
  /** The sender's connection (left out of the broadcast), when it was kept. */
  from: string;
  /** Kept since (ms): given up after the idle time, when the lesson would have ended anyway. */
  since: number;
}

/** A connect refused by the handshake: the client reads `data.reason` (lessons.ts LessonConnectError). */
function refusal(reason: LessonConnectError['reason'], message: string): Error {
  return Object.assign(new Error(message), { data: { reason } satisfies LessonConnectError });
}

const REFUSAL_MESSAGE: Record<LessonEndReason, string> = {
  ended: MSG.lessonOver,
  idle: MSG.lessonIdleOver,
  removed: MSG.lessonRemoved,
};

/**
 * The real-time side of live lessons (docs/live-lessons.md): socket.io at LESSON_SOCKET_PATH beside
 * the API's HTTP server, WebSocket only, rooms shared by every API process through the Redis adapter
 * (its own two connections, channels under REDIS_PREFIX). The lesson's state is in Redis
 * (packages/server/src/lessons/lesson-store.ts), so any process welcomes a (re)connect with the current
 * state. Made with the app (the REST calls tell the class through it), connected to Redis on first
 * use, attached to the HTTP server by main.ts (and by tests), closed on shutdown.
 */
export class LessonRealtime {
  readonly deps: ServerDeps;
  readonly #draining: Draining;
  #io: Server | null = null;
  #clients: Redis[] = [];
  #sweep: NodeJS.Timeout | undefined;
  /** Lessons whose teacher is connected to this process: their idle deadline is kept moving. */
  readonly #teachers = new Map<string, number>();
  readonly #trailing = new Map<string, { timer: NodeJS.Timeout; message: LessonViewMessage; from: string }>();
  readonly #unsaved = new Map<string, UnsavedView>();
  #unsavedTimer: NodeJS.Timeout | undefined;
  #storing = false;
  #arrivals = 0;

  constructor(deps: ServerDeps, draining: Draining) {
    this.deps = deps;
    this.#draining = draining;
  }

  get store() {
    return lessonStore(this.deps);
  }

  /** The socket.io server, made (and its adapter connected) on first use. */
  get io(): Server {
    if (this.#io) return this.#io;
    const { config, logger } = this.deps;
    // Duplicates of the command client, for the adapter's pub/sub: an offline queue and no command
    // timeout (a subscriber waits), resubscribed by ioredis after a reconnect.
    const options = {
      enableAutoPipelining: false,
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      commandTimeout: undefined,
    };
    const pub = this.deps.redis.duplicate(options);
    const sub = this.deps.redis.duplicate(options);
    watchRedis(pub, logger, 'redis (lessons publish)');
    watchRedis(sub, logger, 'redis (lessons subscribe)');
    this.#clients = [pub, sub];
    const io = new Server({
      path: LESSON_SOCKET_PATH,
      // WebSocket only: no long-polling, so no sticky sessions behind nginx.
      transports: ['websocket'],
      serveClient: false,
      adapter: createAdapter(pub, sub, { key: redisKey(config.REDIS_PREFIX, 'socket.io') }),
      // A draining process takes no new connection: the client retries and reaches another process.
      allowRequest: (_req, callback) =>
        callback(this.#draining.active ? 'draining' : null, !this.#draining.active),
    });
    io.use((socket, next) => {
      this.#admit(socket as LessonSocket).then(
        () => next(),
        (error: unknown) =>
          next(
            error instanceof Error && 'data' in error
              ? error
              : refusal('unavailable', MSG.serviceUnavailable),
          ),
      );
    });
    io.on('connection', (socket) => onLessonConnection(this, socket as LessonSocket));
    this.#io = io;
    return io;
  }

  /** Serves the lesson sockets on the API's HTTP server and starts the idle sweep. */
  attach(server: HttpServer): this {
    this.io.attach(server);
    const every = Math.min(30_000, Math.max(250, Math.floor(this.deps.config.LESSON_IDLE_MS / 4)));
    this.#sweep = setInterval(() => void this.sweep(), every);
    this.#sweep.unref();
    return this;
  }

  async #admit(socket: LessonSocket): Promise<void> {
    const token: unknown = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const seat = verifyLessonSeat(this.deps.config.SIGNING_SECRET, token);
    if (!seat) throw refusal('invalid', MSG.lessonOver);
    const standing = await checkSeat(this.deps, seat);
    if ('reason' in standing) throw refusal(standing.reason, REFUSAL_MESSAGE[standing.reason]);
    socket.data = { seat, window: { start: 0, count: 0 } };
  }

  /** A teacher connection of this process opened (+1) or closed (-1). */
  teacherPresent(lessonId: string, delta: 1 | -1): void {
    const n = (this.#teachers.get(lessonId) ?? 0) + delta;
    if (n > 0) this.#teachers.set(lessonId, n);
    else this.#teachers.delete(lessonId);
  }

  idleDeadline(): number {
    return Date.now() + this.deps.config.LESSON_IDLE_MS;
  }

  /**
   * A leader's view (the `view` event, already parsed): stored as the lesson's latest (the Redis
   * script checks that `by` leads and assigns its seq), then sent to the class. When Redis cannot take
   * it (an outage), the lesson's latest such view is kept and stored once Redis answers again, then sent
   * to everyone reliably: a leader who stops moving during an outage still leaves the class on its last
   * view (docs/live-lessons.md, "Redis outage"). A later view always wins over a kept one.
   */
  async acceptView(socket: LessonSocket, sent: UnsavedView['sent']): Promise<void> {
    const { lessonId, seatId } = socket.data.seat;
    const arrival = (this.#arrivals += 1);
    let seq: number | null;
    try {
      seq = await this.store.view(lessonId, seatId, sent, this.idleDeadline());
    } catch (error) {
      const kept = this.#unsaved.get(lessonId);
      if (kept && kept.arrival > arrival) return;
      if (!kept) this.deps.logger.warn({ err: error, lessonId }, 'lesson view kept until Redis answers');
      this.#unsaved.set(lessonId, { arrival, by: seatId, sent, from: socket.id, since: Date.now() });
      this.#unsavedTimer ??= setInterval(() => void this.#storeUnsaved(), UNSAVED_RETRY_MS);
      this.#unsavedTimer.unref();
      return;
    }
    const kept = this.#unsaved.get(lessonId);
    if (kept && kept.arrival < arrival) this.#unsaved.delete(lessonId);
    if (seq === null) return; // not the leader (or the lesson just ended): ignored
    this.broadcastView(socket, lessonId, { seq, by: seatId, ...sent });
  }

  /** The kept views, stored now if Redis answers, then sent to the class reliably. */
  async #storeUnsaved(): Promise<void> {
    if (this.#storing) return; // the previous round still waits for Redis
    this.#storing = true;
    try {
      await this.#storeUnsavedOnce();
    } finally {
      this.#storing = false;
    }
  }

  async #storeUnsavedOnce(): Promise<void> {
    for (const [lessonId, kept] of this.#unsaved) {
      if (Date.now() - kept.since > this.deps.config.LESSON_IDLE_MS) {
        this.#unsaved.delete(lessonId);
        continue;
      }
      let seq: number | null;
      try {
        seq = await this.store.view(lessonId, kept.by, kept.sent, this.idleDeadline());
      } catch {
        continue; // still down: next round
      }
      // A later view that reached Redis first has a higher seq: this one loses on every client.
      if (this.#unsaved.get(lessonId) === kept) this.#unsaved.delete(lessonId);
      if (seq === null) continue; // no longer the leader, or the lesson is over
      this.deps.logger.info({ lessonId, seq }, 'lesson view stored after Redis answered again');
      this.io
        .to(lessonRooms(lessonId).all)
        .except(kept.from)
        .emit(LESSON_EVENTS.view, {
          seq,
          by: kept.by,
          ...kept.sent,
        } satisfies LessonViewMessage);
    }
    if (this.#unsaved.size === 0) {
      clearInterval(this.#unsavedTimer);
      this.#unsavedTimer = undefined;
    }
  }

  /**
   * A view to everyone in the lesson but its sender: volatile (a connection still writing the previous
   * one skips this one), then, once the burst pauses, the latest once more reliably, so every follower
   * ends on the leader's last view even when it skipped.
   */
  broadcastView(socket: LessonSocket, lessonId: string, message: LessonViewMessage): void {
    const room = lessonRooms(lessonId).all;
    socket.volatile.to(room).emit(LESSON_EVENTS.view, message);
    const pending = this.#trailing.get(lessonId);
    if (pending) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.#trailing.delete(lessonId);
      this.io.to(room).except(socket.id).emit(LESSON_EVENTS.view, message);
    }, TRAILING_VIEW_MS);
    timer.unref();
    this.#trailing.set(lessonId, { timer, message, from: socket.id });
  }

  /** The roster to the lesson's teacher (every process). */
  async roster(lessonId: string): Promise<void> {
    const pupils = await this.store.roster(lessonId);
    const event: LessonRosterEvent = { pupils };
    this.io.to(lessonRooms(lessonId).teacher).emit(LESSON_EVENTS.roster, event);
  }

  /** The lesson is over for a room (the whole lesson, or one seat): `over`, then disconnected, on every process. */
  over(room: string, reason: LessonEndReason): void {
    this.io.to(room).emit(LESSON_EVENTS.over, { reason });
    this.io.in(room).disconnectSockets(true);
  }

  /** Ends a lesson (teacher or idle) and tells the class; false when it was over already. */
  async end(lessonId: string, reason: 'ended' | 'idle'): Promise<boolean> {
    const ended = await endLesson(this.deps, lessonId, reason);
    const pending = this.#trailing.get(lessonId);
    if (pending) clearTimeout(pending.timer);
    this.#trailing.delete(lessonId);
    this.#unsaved.delete(lessonId);
    if (ended) this.over(lessonRooms(lessonId).all, reason);
    return ended;
  }

  /**
   * The idle rule, on every process: the lessons whose teacher is connected here have their deadline
   * moved on; the lessons past their deadline are claimed (each by exactly one process) and ended.
   */
  async sweep(): Promise<void> {
    // During a Redis outage there is nothing to sweep with (the outage is logged once, by its watcher);
    // the next sweep after it moves the deadlines on.
    if (redisOutageOf(this.deps.redis)?.down) return;
    try {
      await this.store.keepAlive([...this.#teachers.keys()], this.idleDeadline());
      for (const id of await this.store.claimIdle(Date.now())) await this.end(id, 'idle');
    } catch (error) {
      // The client's watcher has seen the outage (watchRedis): no stack per sweep.
      if (!isRedisUnavailable(error)) this.deps.logger.warn({ err: error }, 'lesson idle sweep failed');
    }
  }

  /**
   * Shutdown (rolling restart): the connections of this process are closed without a word, so each
   * client reconnects on its own, to another process, and is welcomed there with the current state.
   */
  async close(): Promise<void> {
    clearInterval(this.#sweep);
    clearInterval(this.#unsavedTimer);
    this.#unsavedTimer = undefined;
    this.#unsaved.clear();
    for (const { timer } of this.#trailing.values()) clearTimeout(timer);
    this.#trailing.clear();
    const io = this.#io;
    if (!io) return;
    // Closing the connections runs their disconnect handlers (presence, roster): give them a moment.
    const sockets = io.of('/').sockets.size;
    (io.engine as { close?: () => void } | undefined)?.close?.();
    if (sockets > 0) await new Promise((resolve) => setTimeout(resolve, 200));
    await io.of('/').adapter.close?.();
    for (const client of this.#clients) client.disconnect();
    this.#io = null;
  }
}

/** The app's lesson realtime (made by createApp). */
export function lessonRealtimeOf(app: Pick<Express, 'locals'>): LessonRealtime {
  const realtime = app.locals.lessons as LessonRealtime | undefined;
  if (!realtime) throw new Error('the app has no lesson realtime (createApp makes it)');
  return realtime;
}
