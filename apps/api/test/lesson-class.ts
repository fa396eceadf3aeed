import { isDeepStrictEqual } from 'node:util';
import { io as connect, type Socket } from 'socket.io-client';
import {
  LESSON_SOCKET_PATH,
  type LessonForPupil,
  type LessonForTeacher,
  type LessonView,
  type LessonViewMessage,
  type LessonWelcome,
} from '@helix/shared/lessons';
import type { Db } from '@helix/server/db';
import { createSession } from '@helix/server/sessions/session.service';
import {
  CUSTOMER_PLAN_PERMISSIONS,
  createPlan,
  createTenant,
  createUser,
  seedRoles,
} from '@helix/server/testing/factories';

/**
 * A class for live lessons driven from node against a running API (apps/api/bench/lessons.bench.ts,
 * apps/api/faults/lesson-redis-outage.fault.test.ts): a school on a plan with live lessons, its
 * teachers (Admin role) with sessions and one model, and socket.io clients that keep what a pupil's
 * or a teacher's page keeps (the latest view by seq) plus counts of what happened.
 */
export interface LessonSchool {
  /** /api/t/<school> */
  base: string;
  /** The teachers' session tokens. */
  teachers: string[];
  modelId: number;
}

export async function createLessonSchool(db: Db, teachers: number): Promise<LessonSchool> {
  await seedRoles(db);
  const plan = await createPlan(db, {
    family: 'educator',
    liveLessons: true,
    viewLimit: 0,
    userLimit: teachers,
    permissions: CUSTOMER_PLAN_PERMISSIONS,
  });
  const tenant = await createTenant(db, { plan, name: 'Lesson school' });
  const tokens: string[] = [];
  for (let i = 0; i < teachers; i += 1) {
    const user = await createUser(db, { tenant, name: `Teacher ${i + 1}`, password: null });
    tokens.push((await createSession(db, { userId: user.id, rememberMe: false })).token);
  }
  // The lesson never loads the file here (no viewer frame): a stored key is what start asks for.
  const model = await db.model.create({
    data: { name: 'Animal cell', urlModelName: 'animal-cell', isPublic: true, fileKey: 'models/cell.glb' },
  });
  return { base: `/api/t/${tenant.domainPrefix}`, teachers: tokens, modelId: model.id };
}

async function post<T>(url: string, body: object, token?: string): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

/** POST /api/t/:school/lessons as a teacher. */
export const startLessonAt = (api: string, school: LessonSchool, teacher: number) =>
  post<LessonForTeacher>(
    `${api}${school.base}/lessons`,
    { modelId: school.modelId },
    school.teachers[teacher],
  );

/** POST /api/lessons/join as a guest. */
export const joinLessonAt = (api: string, code: string, name: string) =>
  post<LessonForPupil>(`${api}/api/lessons/join`, { code, name });

/** A view whose camera says which one it is (x = n). */
export const numberedView = (n: number, selected: string | null = null): LessonView => ({
  camera: { position: [n, 1.5, 4], target: [0, 0, 0] },
  selected,
  hiddenParts: ['membrane'],
  cutaway: { axis: 'x', offset: 0.25 },
  labels: true,
  colours: { nucleus: '#5f51fb' },
  pointer: [0.1, 0.2, 0.3],
});

/** Milliseconds since the epoch with sub-millisecond precision (sentAt and receipt, one clock). */
export const preciseNow = () => performance.timeOrigin + performance.now();

/**
 * One seat's socket.io client. Keeps the latest view by seq (welcome or `view`, older loses), counts
 * receipts, first receipts per seq, disconnects and reconnects; `onFirst` hears each new view's
 * receipt time. socket.io's client reconnects by itself after a dropped connection; a refused connect
 * (connect_error) is retried after a moment unless the lesson is over for this seat.
 */
export class LessonClient {
  readonly socket: Socket;
  latest: LessonViewMessage | null = null;
  welcomes = 0;
  received = 0;
  firsts = 0;
  disconnects = 0;
  refusals = 0;
  over: string | null = null;
  #seen = new Set<number>();
  onFirst: ((message: LessonViewMessage, at: number) => void) | null = null;

  constructor(base: string, token: string, options: { reconnection?: boolean } = {}) {
    this.socket = connect(base, {
      path: LESSON_SOCKET_PATH,
      transports: ['websocket'],
      auth: { token },
      forceNew: true,
      reconnection: options.reconnection ?? true,
      reconnectionDelay: 250,
      reconnectionDelayMax: 2000,
    });
    this.socket.on('welcome', (welcome: LessonWelcome) => {
      this.welcomes += 1;
      if (welcome.view) this.#take(welcome.view, false);
    });
    this.socket.on('view', (message: LessonViewMessage) => {
      this.received += 1;
      this.#take(message, true);
    });
    this.socket.on('disconnect', () => (this.disconnects += 1));
    this.socket.on('over', ({ reason }: { reason: string }) => (this.over = reason));
    this.socket.on('connect_error', (error: Error & { data?: { reason?: string } }) => {
      this.refusals += 1;
      const reason = error.data?.reason;
      // Refused for now (unavailable, or a handshake that failed): try again, as the page does.
      if (options.reconnection !== false && (!reason || reason === 'unavailable')) {
        setTimeout(() => this.socket.connect(), 500);
      }
    });
  }

  #take(message: LessonViewMessage, counted: boolean) {
    const at = preciseNow();
    if (counted && !this.#seen.has(message.seq)) {
      this.#seen.add(message.seq);
      this.firsts += 1;
      this.onFirst?.(message, at);
    }
    if (!this.latest || message.seq >= this.latest.seq) this.latest = message;
  }

  /** The connections this client made after its first (socket.io's reconnects, ours after a refusal). */
  get reconnects(): number {
    return Math.max(0, this.welcomes - 1);
  }

  /** Its latest view is `view` sent at `sentAt` (the leader's last). */
  showsView(view: LessonView, sentAt: number): boolean {
    return this.latest !== null && this.latest.sentAt === sentAt && isDeepStrictEqual(this.latest.view, view);
  }

  /** Resolves at the first welcome (rejects on a refusal that is final). */
  welcomed(timeoutMs = 30_000): Promise<void> {
    if (this.welcomes > 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no welcome within ${timeoutMs} ms`)), timeoutMs);
      this.socket.once('welcome', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  close(): void {
    this.socket.disconnect();
  }
}

/** Runs `task` over `items` with at most `limit` at once. */
export async function inBatches<T, R>(items: T[], limit: number, task: (item: T, i: number) => Promise<R>) {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i]!, i);
      }
    }),
  );
  return results;
}
